/**
 * What an uploaded F24 file is, judged from its bytes alone (the API's check before anything is stored). Kept apart
 * from f24-pdf.ts so the API never loads pdfjs-dist: its legacy build installs polyfills process-wide (JSON.stringify
 * among them), which cost every answer of the process.
 */

export type F24FileKind = 'pdf' | 'png' | 'jpeg';

export const F24_MEDIA_TYPES: Readonly<Record<F24FileKind, string>> = { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg' };

/** Why a file cannot be an F24, found from its bytes alone. */
export type F24FileRefusal = 'empty' | 'not_a_pdf' | 'encrypted';

/** The file's kind from its first bytes (its declared type is not trusted), or why it is refused. */
export function inspectF24File(bytes: Buffer): { kind: F24FileKind } | { refused: F24FileRefusal } {
  if (bytes.length === 0) return { refused: 'empty' };
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { kind: 'png' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { kind: 'jpeg' };
  // A PDF may carry a few bytes before its header (readers look in the first KB).
  if (bytes.subarray(0, 1024).indexOf('%PDF-') < 0) return { refused: 'not_a_pdf' };
  // An encrypted PDF names its security handler in the trailer (/Encrypt); neither its text nor its images are readable.
  if (/\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(bytes.toString('latin1'))) return { refused: 'encrypted' };
  return { kind: 'pdf' };
}
