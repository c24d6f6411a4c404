import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** One member of the integration error body. */
export interface ErrorItem {
  code: string;
  title: string;
  detail: string | null;
  source?: { pointer: string };
  /** With `insufficient_permission`: the permission the call needs. */
  required_permission?: string;
}

export interface ErrorBody {
  errors: ErrorItem[];
  /** The request's id (X-Request-Id), to quote when asking for help; every error the API answers carries it. */
  meta?: { request_id: string };
}

export function errorItem(code: ErrorCode, detail: string | null, pointer?: string): ErrorItem {
  const item: ErrorItem = { code, title: ERROR_CODES[code].title, detail };
  if (pointer !== undefined) item.source = { pointer };
  return item;
}

/** JSON Pointer (RFC 6901) to a member of the request body, from its path segments. */
export function bodyPointer(...segments: Array<string | number>): string {
  return '/' + segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** Pointer to a query parameter, as the errors page documents: `/query/NAME`. */
export function queryPointer(name: string): string {
  return `/query/${name}`;
}

/** An error the API answers on purpose, with its status and one or more items. */
export class ApiError extends Error {
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly items: ErrorItem[],
    headers: Record<string, string> = {},
  ) {
    super(items.map((i) => i.detail ?? i.title).join('; '));
    this.headers = headers;
  }

  static of(code: ErrorCode, detail: string | null, pointer?: string, headers?: Record<string, string>): ApiError {
    return new ApiError(ERROR_CODES[code].status, [errorItem(code, detail, pointer)], headers);
  }

  static badQuery(name: string, detail: string, code: ErrorCode = 'invalid_query_parameter'): ApiError {
    return ApiError.of(code, detail, queryPointer(name));
  }

  static notFound(what: string, pointer?: string): ApiError {
    return ApiError.of('not_found', `${what} was not found.`, pointer);
  }

  /** 403 for a key that lacks the permission a call needs, naming it, and saying `because` when the route does not. */
  static insufficientPermission(permission: string, because?: string): ApiError {
    const enough =
      permission === '*' ? '*' : permission.endsWith(':read') ? `${permission}, ${permission.replace(/:read$/, ':write')} or *` : `${permission} or *`;
    const item = errorItem(
      'insufficient_permission',
      `This call needs the permission ${permission}, which this API key lacks${because ? ` (${because})` : ''}; use a key with ${enough}.`,
    );
    return new ApiError(ERROR_CODES.insufficient_permission.status, [{ ...item, required_permission: permission }]);
  }

  static forbidden(detail = 'This API key has no access to this resource.', pointer?: string): ApiError {
    return ApiError.of('forbidden', detail, pointer);
  }
}
