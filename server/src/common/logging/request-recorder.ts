import type { Environment } from '../../config/config.js';

/**
 * A failed request (4xx or 5xx) of a known key, as the integrator's request log keeps it: who called, what, how it
 * ended and how long it took. Never a header, a body or a query string.
 */
export interface FailedRequest {
  integratorId: string;
  environment: Environment;
  apiKeyId: string;
  /** The key's public start (its lookup, e.g. `fls_dev_AbCd1234`), never the key. */
  keyPrefix: string;
  companyId: string | null;
  method: string;
  /** The route's template as the OpenAPI document writes it (`/companies/{company_id}/documents`); null when none matched. */
  route: string | null;
  path: string;
  status: number;
  errorCodes: string[];
  requestId: string;
  durationMs: number;
  /** When the request arrived. */
  at: Date;
}

/**
 * Where the access log hands failed requests (the request log, request-logs/): `record` must return at once, whatever
 * becomes of the entry, and `close` writes what is still held before the process ends.
 */
export interface RequestRecorder {
  record(entry: FailedRequest): void;
  close(): Promise<void>;
}

const ERROR_CODES = Symbol('error codes');
type Noted = { [ERROR_CODES]?: string[] };

/** Keeps the codes of the error body a request was answered with (send-error.ts), for its entry in the request log. */
export function noteErrorCodes(request: object, codes: string[]): void {
  (request as Noted)[ERROR_CODES] = codes;
}

/** The codes noted for a request's error answer; none when it was answered otherwise. */
export function errorCodesOf(request: object): string[] {
  return (request as Noted)[ERROR_CODES] ?? [];
}
