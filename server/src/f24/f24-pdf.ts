import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { groupIntoLines, type PageLine } from './f24-words.js';

/**
 * The PDF side of reading an F24, with pdfjs-dist: what kind of file was sent (checked at upload, before anything is
 * stored), the text layer of each page, and a page rendered as an image for OCR when it has no text.
 */

const require = createRequire(import.meta.url);
const PDFJS_ROOT = dirname(require.resolve('pdfjs-dist/package.json'));
// pdfjs runs its parser in-process here (Node has no web worker); the fake worker imports this module.
GlobalWorkerOptions.workerSrc = join(PDFJS_ROOT, 'legacy/build/pdf.worker.mjs');
const STANDARD_FONTS = join(PDFJS_ROOT, 'standard_fonts') + '/';

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: STANDARD_FONTS,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
}

/** The lines of a page's text layer; a page with fewer than `MIN_TEXT` characters counts as scanned. */
export const MIN_TEXT = 20;

export async function pageText(pdf: PDFDocumentProxy, pageNumber: number): Promise<PageLine[] | null> {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const words: Array<{ text: string; x0: number; x1: number; top: number; height: number; confidence: number }> = [];
  let characters = 0;
  for (const item of content.items) {
    if (!('str' in item) || !item.str.trim()) continue;
    characters += item.str.trim().length;
    // The item's origin and width in page space; each word gets its share of the width by its characters.
    const [x, y] = viewport.convertToViewportPoint(item.transform[4], item.transform[5]);
    const height = Math.abs(item.transform[3]) || item.height;
    const perChar = item.width / item.str.length;
    let offset = 0;
    for (const part of item.str.split(/(\s+)/)) {
      if (part.trim()) {
        const x0 = x + offset * perChar;
        words.push({
          text: part,
          x0: x0 / viewport.width,
          x1: (x0 + part.length * perChar) / viewport.width,
          top: (y - height) / viewport.height,
          height: height / viewport.height,
          confidence: 100,
        });
      }
      offset += part.length;
    }
  }
  page.cleanup();
  return characters < MIN_TEXT ? null : groupIntoLines(words);
}

interface RenderedCanvas {
  width: number;
  height: number;
  toBuffer(type: 'image/png'): Buffer;
}

interface RenderContext {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
}

/** A page rendered as a PNG at `dpi`, for OCR. */
export async function renderPage(pdf: PDFDocumentProxy, pageNumber: number, dpi = 300): Promise<Buffer> {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: dpi / 72 });
  // pdfjs's own factory: its canvas comes from the @napi-rs/canvas copy whose Path2D pdfjs draws with.
  const factory = (pdf as unknown as { canvasFactory: { create(w: number, h: number): { canvas: RenderedCanvas; context: RenderContext } } }).canvasFactory;
  const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  page.cleanup();
  return canvas.toBuffer('image/png');
}
