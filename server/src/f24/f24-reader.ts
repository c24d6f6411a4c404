import { parseF24, type F24ParseResult } from './f24-parser.js';
import type { F24FileKind } from './f24-file.js';
import { openPdf, pageText, renderPage } from './f24-pdf.js';
import { findTessdata, type F24Ocr } from './f24-ocr.js';
import type { PageSource, ReadPage } from './f24-words.js';

/** At most this many pages are read: an F24 is one page, a bundle of a few at most. */
export const MAX_F24_PAGES = 4;

export interface F24FileReading {
  result: F24ParseResult;
  /** How each page was read: its text layer, or OCR where it had none. */
  sources: PageSource[];
}

/**
 * A stored F24 file read: the text layer of each PDF page first, OCR (tesseract) for a page without one and for an
 * image; then the form parsed and checked. A file pdfjs cannot open fails as `unreadable_file`.
 */
export async function readF24File(bytes: Buffer, kind: F24FileKind, maybeOcr: F24Ocr | null): Promise<F24FileReading> {
  // A scan met by a worker without the language data is the installation's fault, not the form's: the job fails and is retried.
  const ocr = {
    read: (image: Buffer) => {
      if (!maybeOcr) throw new Error((findTessdata() as { missing: string }).missing);
      return maybeOcr.read(image);
    },
  };
  if (kind !== 'pdf') {
    const page: ReadPage = { source: 'ocr', lines: await ocr.read(bytes) };
    return { result: parseF24([page]), sources: ['ocr'] };
  }
  let pdf;
  try {
    pdf = await openPdf(bytes);
  } catch (error) {
    const detail =
      (error as Error).name === 'PasswordException' ? 'The PDF is protected by a password.' : `The PDF cannot be read: ${(error as Error).message}`;
    return { result: { ok: false, failure: { reason: 'unreadable_file', detail } }, sources: [] };
  }
  try {
    if (pdf.numPages > MAX_F24_PAGES) {
      return {
        result: { ok: false, failure: { reason: 'not_an_f24', detail: `The PDF has ${pdf.numPages} pages; an F24 has at most ${MAX_F24_PAGES}.` } },
        sources: [],
      };
    }
    const pages: ReadPage[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const lines = await pageText(pdf, n);
      pages.push(lines ? { source: 'text', lines } : { source: 'ocr', lines: await ocr.read(await renderPage(pdf, n)) });
    }
    return { result: parseF24(pages), sources: pages.map((p) => p.source) };
  } finally {
    await pdf.destroy();
  }
}
