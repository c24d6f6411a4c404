import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './generated/operations.js';

/** A delivery that is not from Flusso, not for this secret, or too old (or too far ahead) to accept. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300 (5 minutes), as the portal says. */
  toleranceSeconds?: number;
  /** Now, in milliseconds since the epoch (default: Date.now()). */
  now?: number;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/** A header's value whatever the spelling of its name (Node lower-cases them; other frameworks may not). */
function header(headers: HeaderBag, name: string): string {
  const key = headers instanceof Headers ? undefined : Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = headers instanceof Headers ? headers.get(name) : key && headers[key];
  const text = Array.isArray(value) ? value.join(' ') : value;
  if (!text) throw new WebhookVerificationError(`The ${name} header is missing.`);
  return text;
}

function key(secret: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new TypeError('A webhook secret starts with whsec_: give it exactly as the API returned it.');
  const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64');
  if (bytes.length === 0) throw new TypeError('The webhook secret holds no key after whsec_.');
  return bytes;
}

/**
 * Checks a webhook delivery as Standard Webhooks says, and returns its event: `webhook-timestamp` within the tolerance
 * of now, and one of the `v1,` signatures of `webhook-signature` equal (in constant time) to the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the secret's base64 after `whsec_`. Give it the body exactly
 * as received (the raw bytes or their text, never a re-serialised JSON) and, while a secret rotation is under way,
 * both secrets. Throws WebhookVerificationError otherwise: answer such a request 400 and do not process it.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: HeaderBag, secret: string | string[], options: VerifyOptions = {}): WebhookEvent {
  const keys = (Array.isArray(secret) ? secret : [secret]).map(key);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds.');
  const tolerance = options.toleranceSeconds ?? 300;
  const age = Math.floor((options.now ?? Date.now()) / 1000) - Number(timestamp);
  if (Math.abs(age) > tolerance) {
    throw new WebhookVerificationError(`webhook-timestamp is ${Math.abs(age)} seconds ${age > 0 ? 'old' : 'ahead'}, more than the ${tolerance} allowed.`);
  }
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const expected = keys.map((bytes) => createHmac('sha256', bytes).update(signed).digest());
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return expected.some((digest) => given.length === digest.length && timingSafeEqual(given, digest));
  });
  if (!matches) throw new WebhookVerificationError('No signature of webhook-signature matches this secret.');
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('The signed body is not JSON.');
  }
}
