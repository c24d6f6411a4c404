import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
import { RATE_LIMIT_LIMIT_HEADER, RATE_LIMIT_REMAINING_HEADER } from '../common/auth/rate-limiter.service.js';
import { REQUEST_ID_HEADER, REQUEST_ID_PATTERN } from '../common/logging/request-id.js';

/** The response headers the API sends on many operations, declared once in `components.headers`. */
const HEADERS = {
  RequestId: {
    name: REQUEST_ID_HEADER,
    description:
      "The request's id: your own `X-Request-Id` when it is 1 to 128 letters, digits or `-_.:+/=`, else one Flusso made. Also in `meta.request_id` of an error; quote it to support.",
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN.source },
  },
  RateLimitLimit: {
    name: RATE_LIMIT_LIMIT_HEADER,
    description:
      'Requests the API key may send in the current window (see `retry-after` on a 429). On every answer once the key is recognised; on a 401, and on the 429 of too many failed authentications, the failed authentications allowed per window instead (there is no key to count against).',
    schema: { type: 'integer', minimum: 1 },
  },
  RateLimitRemaining: {
    name: RATE_LIMIT_REMAINING_HEADER,
    description:
      "Requests the API key may still send in the current window; 0 on a 429 of the key's own limit. On a 401, the failed authentications the key's prefix and the client's address may still make before 429.",
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    name: 'retry-after',
    description: 'Seconds to wait before sending the request again.',
    schema: { type: 'integer', minimum: 1 },
  },
  WwwAuthenticate: {
    name: 'www-authenticate',
    description: 'The scheme to authenticate with: `Bearer realm="flusso"`.',
    schema: { type: 'string' },
  },
} as const;
type HeaderName = keyof typeof HEADERS;

/**
 * Statuses that always carry the rate-limit headers: those that come after the API key was recognised and counted
 * (ApiKeyGuard), successes and the answers of the checks that follow it; 401, whose headers count failed
 * authentications instead; and 429, which is only ever sent by the two limits and names its own (the key's window with
 * 0 remaining, or the failed authentications allowed). A 400, 403, 404, 413 or 415 may also come before (a body
 * Fastify refuses to parse, HTTPS required, a path segment longer than any id, a path without a route sent without a
 * key) and a 5xx from anywhere: they carry the headers or not.
 */
const WITH_RATE_LIMIT = /^(2..|401|409|422|429)$/;

/** The headers an operation's answer with this status always carries. */
function headersOf(status: string, authenticated: boolean): HeaderName[] {
  const names: HeaderName[] = ['RequestId'];
  if (authenticated && WITH_RATE_LIMIT.test(status)) names.push('RateLimitLimit', 'RateLimitRemaining');
  if (status === '429' || status === '503') names.push('RetryAfter');
  if (status === '401') names.push('WwwAuthenticate');
  return names;
}

/**
 * Declares the response headers the API's hooks and guards send (logging/access-log.ts, auth/guards.ts,
 * auth/rate-limiter.service.ts, errors/error-response.ts), on every response of every operation that always carries
 * them, as references to `components.headers`, so generated clients expose them. Each is `required`: the e2e tests
 * check every answer has the headers its status declares.
 */
export function documentResponseHeaders(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.headers = {
    ...document.components.headers,
    ...Object.fromEntries(Object.entries(HEADERS).map(([key, { description, schema }]) => [key, { description, required: true, schema }])),
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as OperationObject[]) {
      if (!operation?.responses) continue;
      const authenticated = (operation.security ?? document.security ?? []).length > 0;
      for (const [status, response] of Object.entries(operation.responses) as Array<[string, ResponseObject]>) {
        const declared = Object.fromEntries(headersOf(status, authenticated).map((key) => [HEADERS[key].name, { $ref: `#/components/headers/${key}` }]));
        response.headers = { ...declared, ...response.headers };
      }
    }
  }
}
