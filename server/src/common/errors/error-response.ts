import { HttpException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { ApiError, errorItem, type ErrorBody } from './api-error.js';
import { codeForStatus, ERROR_CODES, type ErrorCode } from './error-codes.js';

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Set when the error was not expected: the caller logs it (with the request's id), the client never sees it. */
  unexpected?: unknown;
}

function single(code: ErrorCode, detail: string | null, status: number = ERROR_CODES[code].status): ErrorResponse {
  return { status, body: { errors: [errorItem(code, detail)] }, headers: {} };
}

/** How long a client is told to wait before retrying a request that met a busy or unreachable backing service. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** 503 service_unavailable with Retry-After: nothing was changed, the same request can be sent again. */
function unavailable(detail: string): ErrorResponse {
  return { ...single('service_unavailable', detail), headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } };
}

/** The answer to a path segment longer than the router takes (Fastify's maxParamLength): no id is that long. */
export const SEGMENT_TOO_LONG = 'A path segment is longer than any id this API issues.';

/** Errors raised by Fastify itself before a handler runs (body parsing, limits, URLs). */
function fromFastify(error: { code?: string; statusCode?: number; message?: string }): ErrorResponse | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return single('payload_too_large', 'The request body is larger than this API accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return single('unsupported_media_type', 'Send the request body as application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return single('bad_request', 'The Content-Length header does not match the body.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return single('not_found', SEGMENT_TOO_LONG);
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return single('bad_request', 'The request URL is malformed.');
  }
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return single('bad_request', `The request body is not valid JSON: ${error.message}`);
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 && error.code?.startsWith('FST_')) {
    return single(codeForStatus(error.statusCode), error.message ?? null, error.statusCode);
  }
  return undefined;
}

/** PostgreSQL errors: input the database refused becomes a client error; nothing of the SQL leaks. */
function fromDatabase(error: QueryFailedError): ErrorResponse {
  const code = (error.driverError as { code?: string } | undefined)?.code ?? '';
  if (code === '22P02' || code === '22003' || code === '22007' || code === '22008' || code === '22001') {
    return single('unprocessable_entity', 'A value in the request is out of the range this API accepts.');
  }
  if (code === '23505' || code === '23503' || code === '23514') {
    return single('unprocessable_entity', 'The request conflicts with the current state of the data.');
  }
  if (code === '55P03') return unavailable('Another change holds a lock this request waited on for too long; nothing was changed, try again shortly.');
  if (code === '57014') return unavailable('The database took too long to answer; nothing was changed, try again shortly.');
  if (code.startsWith('08') || code === '57P01' || code === '57P03') return unavailable('The database is unavailable; try again shortly.');
  // Wrapped failures of the connection itself (the query never reached the database, or lost it on the way).
  if (isPoolTimeout(error.driverError)) return unavailable('Every database connection is busy; try again shortly.');
  if (isConnectionFailure(error.driverError) || /^Connection terminated/.test(error.driverError?.message ?? '')) {
    return unavailable('The database is unavailable; try again shortly.');
  }
  return { ...single('internal_server_error', 'An unexpected error occurred; it has been logged.'), unexpected: error };
}

function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'ENOTFOUND' || code === 'ECONNRESET';
}

/** pg's pool found no free connection in time, or could not open one in time (its errors carry no code). */
function isPoolTimeout(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return message === 'timeout exceeded when trying to connect' || message === 'Connection terminated due to connection timeout';
}

/** Turns anything thrown while answering into the integration error body. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) {
    return { status: error.status, body: { errors: error.items }, headers: error.headers };
  }
  if (error instanceof HttpException) {
    // Nest hands Fastify's own errors (body parsing, limits) over wrapped, with the original as the cause.
    const fastify = typeof error.cause === 'object' && error.cause !== null ? fromFastify(error.cause as never) : undefined;
    if (fastify) return fastify;
    const status = error.getStatus();
    const response = error.getResponse();
    const message = typeof response === 'object' && response && 'message' in response ? (response as { message: unknown }).message : response;
    const detail = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : error.message;
    if (status === 404 && /^Cannot [A-Z]+ /.test(detail)) {
      return single('not_found', `There is no route ${detail.slice('Cannot '.length)}.`);
    }
    return single(codeForStatus(status), detail, status);
  }
  if (error instanceof QueryFailedError) return fromDatabase(error);
  const fastify = typeof error === 'object' && error !== null ? fromFastify(error as never) : undefined;
  if (fastify) return fastify;
  if (isPoolTimeout(error)) return unavailable('Every database connection is busy; try again shortly.');
  if (isConnectionFailure(error)) return unavailable('A backing service is unavailable; try again shortly.');
  return { ...single('internal_server_error', 'An unexpected error occurred; it has been logged.'), unexpected: error };
}
