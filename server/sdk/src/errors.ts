import type { components } from './generated/schema.js';

export type IntegrationError = components['schemas']['IntegrationError'];
export type IntegrationErrorItem = components['schemas']['IntegrationErrorItem'];

/**
 * An answer of the API that is not a success: its status, the API's error body (every problem with its code, title
 * and detail; `meta.request_id`), and its headers. Branch on `code`, never on the message.
 */
export class FlussoError extends Error {
  override readonly name = 'FlussoError';
  /** The first problem's code (`invalid_query_parameter`, `not_found`…), or `http_<status>` for a body that is not the API's. */
  readonly code: string;
  /** The request's id (`meta.request_id`, else the `x-request-id` header): quote it to support. */
  readonly requestId: string | undefined;
  /** Every problem the API reported. */
  readonly errors: IntegrationErrorItem[];

  constructor(
    readonly status: number,
    /** The error body as the API sent it; undefined when it sent none or not the API's JSON. */
    readonly body: IntegrationError | undefined,
    readonly headers: Headers,
  ) {
    const errors = body?.errors ?? [];
    const first = errors[0];
    super(first ? errors.map((item) => `${item.code}: ${item.detail ?? item.title}`).join('; ') : `HTTP ${status}`);
    this.code = first?.code ?? `http_${status}`;
    this.errors = errors;
    this.requestId = body?.meta?.request_id ?? headers.get('x-request-id') ?? undefined;
  }

  /** The API's error body when `value` is one, else undefined. */
  static body(value: unknown): IntegrationError | undefined {
    const errors = (value as { errors?: unknown } | null)?.errors;
    return Array.isArray(errors) && errors.every((item) => typeof (item as { code?: unknown })?.code === 'string') ? (value as IntegrationError) : undefined;
  }
}
