import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors/api-error.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on an answer replayed from an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key and its answer are kept. */
export const KEY_LIFETIME_HOURS = 24;
/** How long a request holds its key; a claim older than this (its process died) is taken over by a retry. */
export const CLAIM_LEASE_SECONDS = 60;
/** The headers of an answer that describe its body, replayed with it (rate-limit and request-id headers are the retry's own). */
export const REPLAYED_HEADERS = ['content-type', 'location'] as const;

/** 1 to 255 printable ASCII characters without spaces: a UUID fits, and so does any token an integrator makes. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** The request's key, if it sent one; a malformed one (or several) is a 400 `invalid_idempotency_key`. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !VALID_KEY.test(value)) {
    throw ApiError.of(
      'invalid_idempotency_key',
      'Idempotency-Key must be one header of 1 to 255 printable ASCII characters without spaces, such as a UUID.',
      '/header/Idempotency-Key',
    );
  }
  return value;
}

/** JSON with members in code-point order, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a retry must repeat for its key to replay the first answer: the method, the path and query (a trailing slash
 * aside), and the body: bytes as received for a text body (an XML invoice), canonical JSON for a JSON one.
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  const [path, query] = url.split(/\?(.*)/s);
  const target = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const hash = createHash('sha256').update(`${method} ${target}${query === undefined ? '' : `?${query}`}\n`);
  if (typeof body === 'string' || Buffer.isBuffer(body)) hash.update('raw\n').update(body);
  else if (body !== undefined) hash.update('json\n').update(canonicalJson(body));
  return hash.digest('base64url');
}
