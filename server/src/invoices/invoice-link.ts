/**
 * Temporary links to an invoice's XML that work without an API key: the path names the document, the query its expiry
 * (Unix seconds) and an HMAC-SHA256 of both under INVOICE_LINK_SECRET. Changing any part, or waiting past the expiry,
 * makes the link fail.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const INVOICE_FILE_PATH = 'invoice-files';

const signature = (key: Buffer, documentId: string, expires: number) => createHmac('sha256', key).update(`${documentId}.${expires}`).digest('base64url');

/** The path and query of a link to the document's XML (after the API's base path), valid until `expires`. */
export function signInvoiceLink(key: Buffer, documentId: string, expires: number): string {
  return `/${INVOICE_FILE_PATH}/${documentId}?expires=${expires}&signature=${signature(key, documentId, expires)}`;
}

export type LinkVerdict = 'valid' | 'expired' | 'invalid';

/** Checks a link's expiry and signature (the signature first: an altered expiry is `invalid`, not `expired`). */
export function verifyInvoiceLink(key: Buffer, documentId: string, expires: string | undefined, given: string | undefined, nowSeconds: number): LinkVerdict {
  if (!expires || !given || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = Buffer.from(signature(key, documentId.toLowerCase(), Number(expires)));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'invalid';
  return Number(expires) < nowSeconds ? 'expired' : 'valid';
}
