/**
 * The stable error codes of the API, with the status each travels with and its title. The errors page of the portal
 * documents this list; software can branch on `code`.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, title: 'Bad request' },
  invalid_query_parameter: { status: 400, title: 'Invalid query parameter' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  request_failed: { status: 402, title: 'Request failed' },
  forbidden: { status: 403, title: 'Forbidden' },
  https_required: { status: 403, title: 'HTTPS required' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  unprocessable_entity: { status: 422, title: 'Unprocessable entity' },
  reconciliation_exists: { status: 422, title: 'Reconciliation already exists' },
  currency_mismatch: { status: 422, title: 'Currency mismatch' },
  transaction_fully_reconciled: { status: 422, title: 'Transaction fully reconciled' },
  invalid_state: { status: 422, title: 'Invalid state' },
  too_many_requests: { status: 429, title: 'Too many requests' },
  internal_server_error: { status: 500, title: 'Internal server error' },
  bad_gateway: { status: 502, title: 'Bad gateway' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  gateway_timeout: { status: 504, title: 'Gateway timeout' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The generic code for a status, used when an error carries no code of its own. */
export function codeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    400: 'bad_request',
    401: 'unauthorized',
    402: 'request_failed',
    403: 'forbidden',
    404: 'not_found',
    405: 'method_not_allowed',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'unprocessable_entity',
    429: 'too_many_requests',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
  };
  return byStatus[status] ?? (status >= 500 ? 'internal_server_error' : 'bad_request');
}
