/**
 * Temporary links to an invoice's XML (or signed file) that work without an API key: the path names the document, the
 * query its expiry (Unix seconds), the file (`form=p7m` for the signed file) and an HMAC-SHA256 of all three under
 * INVOICE_LINK_SECRET. Changing any part, or waiting past the expiry,
 * makes the link fail.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const INVOICE_FILE_PATH = 'invoice-files';

/** Which file a link serves: the XML, or the signed file (.p7m) exactly as received. */
export type InvoiceFileForm = 'xml' | 'p7m';

const signature = (key: Buffer, documentId: string, expires: number, form: InvoiceFileForm) =>
  createHmac('sha256', key)
    .update(form === 'xml' ? `${documentId}.${expires}` : `${documentId}.${expires}.${form}`)
    .digest('base64url');

/** The path and query of a link to the document's XML or signed file (after the API's base path), valid until `expires`. */
export function signInvoiceLink(key: Buffer, documentId: string, expires: number, form: InvoiceFileForm = 'xml'): string {
  const which = form === 'xml' ? '' : `&form=${form}`;
  return `/${INVOICE_FILE_PATH}/${documentId}?expires=${expires}${which}&signature=${signature(key, documentId, expires, form)}`;
}

export type LinkVerdict = 'valid' | 'expired' | 'invalid';

/** Checks a link's expiry and signature (the signature first: an altered expiry or form is `invalid`, not `expired`). */
export function verifyInvoiceLink(
  key: Buffer,
  documentId: string,
  expires: string | undefined,
  given: string | undefined,
  nowSeconds: number,
  form: InvoiceFileForm = 'xml',
): LinkVerdict {
  if (!expires || !given || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = Buffer.from(signature(key, documentId.toLowerCase(), Number(expires), form));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'invalid';
  return Number(expires) < nowSeconds ? 'expired' : 'valid';
}
