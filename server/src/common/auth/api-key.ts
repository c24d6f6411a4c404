import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../config/config.js';

/** Key prefixes name the environment, so a key pasted into the wrong one is recognised at a glance. */
export const KEY_PREFIX: Record<Environment, string> = { development: 'fls_dev_', production: 'fls_prod_' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BODY_LENGTH = 32;
/** Characters of the key body that are public and index the row; the remaining 24 (≈143 bits) are the secret. */
const LOOKUP_LENGTH = 8;

function randomBase62(length: number): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out.push(ALPHABET[byte % 62]);
    }
  }
  return out.join('');
}

export interface ParsedKey {
  environment: Environment;
  lookup: string;
  key: string;
}

export function generateKey(environment: Environment): ParsedKey {
  const key = KEY_PREFIX[environment] + randomBase62(BODY_LENGTH);
  return { environment, key, lookup: key.slice(0, KEY_PREFIX[environment].length + LOOKUP_LENGTH) };
}

export function parseKey(key: string): ParsedKey | null {
  for (const environment of Object.keys(KEY_PREFIX) as Environment[]) {
    const prefix = KEY_PREFIX[environment];
    if (key.startsWith(prefix) && key.length === prefix.length + BODY_LENGTH && /^[A-Za-z0-9]+$/.test(key.slice(prefix.length))) {
      return { environment, key, lookup: key.slice(0, prefix.length + LOOKUP_LENGTH) };
    }
  }
  return null;
}

export function hashKey(key: string, pepper: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}

export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Two keys of the valid shape (so of equal length), compared in constant time. */
export function keysMatch(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
