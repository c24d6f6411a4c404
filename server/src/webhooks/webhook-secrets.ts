import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signing secrets and signatures, as Standard Webhooks defines them: a secret is `whsec_` + base64 of random bytes
 * (24 here, the minimum the standard asks for is 24), and a signature is `v1,` + base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` keyed with the decoded bytes. Written with node:crypto, not the
 * `standardwebhooks` package, so that the tests' receivers (which verify with that package and with `svix`) check an
 * independent implementation.
 *
 * Secrets must be usable for signing, so they cannot be hashed like API keys: they are stored encrypted with
 * AES-256-GCM under a key from configuration (WEBHOOK_SECRET_KEY), see common/crypto/sealed.ts.
 */
const SECRET_BYTES = 24;
const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key of a `whsec_` secret: its base64 part, decoded. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** One `v1,<base64>` signature of a message. */
export function sign(key: Buffer, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** A secret as stored: sealed under WEBHOOK_SECRET_KEY. */
export { seal as encryptSecret, unseal as decryptSecret } from '../common/crypto/sealed.js';
