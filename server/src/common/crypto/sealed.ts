import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Text kept in PostgreSQL that must be read back but not read by whoever reads the database (webhook signing secrets,
 * answers replayed for an `Idempotency-Key`): AES-256-GCM under a 32-byte key from configuration, stored as
 * `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export function seal(text: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function unseal(stored: string, key: Buffer): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== 'v1' || ciphertext === undefined) throw new Error('Unknown format of a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
