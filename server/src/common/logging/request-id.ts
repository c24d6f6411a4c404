import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming X-Request-Id may be: 1 to 128 letters, digits and `-_.:+/=` (UUIDs, ULIDs, trace ids, base64). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9\-_.:+/=]{1,128}$/;

/**
 * Fastify's `genReqId`: the caller's X-Request-Id when it is a sensible one, else a new UUID. A bad one (too long,
 * spaces, control characters, several headers) is replaced rather than refused: the id exists to help, not to fail.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}
