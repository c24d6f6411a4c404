import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import type { PageLine } from './f24-words.js';

/**
 * OCR of scanned F24 pages with tesseract.js, on the Italian and English trained data that Debian installs
 * (`tesseract-ocr-ita`, `tesseract-ocr-eng`): read from disk, never downloaded (the machines have no internet).
 */

export const OCR_LANGUAGES = ['ita', 'eng'] as const;

const TESSDATA_DIRS = ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata', '/usr/share/tessdata'];

/** The folder that holds every language's trained data (TESSDATA_PREFIX first), or the start-up message. */
export function findTessdata(env: NodeJS.ProcessEnv = process.env): { dir: string } | { missing: string } {
  const candidates = [env.TESSDATA_PREFIX, ...TESSDATA_DIRS].filter((dir): dir is string => !!dir);
  const dir = candidates.find((d) => OCR_LANGUAGES.every((lang) => existsSync(join(d, `${lang}.traineddata`))));
  if (dir) return { dir };
  return {
    missing:
      `F24 OCR: the trained data for ${OCR_LANGUAGES.join(' and ')} was not found in ${candidates.join(', ')}. ` +
      `Install Debian's packages: apt-get install -y ${OCR_LANGUAGES.map((l) => `tesseract-ocr-${l}`).join(' ')} (or set TESSDATA_PREFIX).`,
  };
}

/** One tesseract worker, started on first use and kept: loading the language data takes about two seconds. */
export class F24Ocr {
  private worker: Promise<Worker> | null = null;

  constructor(private readonly tessdata: string) {}

  private start(): Promise<Worker> {
    this.worker ??= createWorker([...OCR_LANGUAGES], OEM.LSTM_ONLY, { langPath: this.tessdata, gzip: false, cacheMethod: 'none' });
    return this.worker;
  }

  /** Loads the language data now, so that the first scan does not wait for it. */
  async warmUp(): Promise<void> {
    await this.start();
  }

  /** The page's lines as tesseract groups them, after it straightens the page (rotateAuto): a scan is never quite level. */
  async read(image: Buffer): Promise<PageLine[]> {
    const worker = await this.start();
    const result = await worker.recognize(image, { rotateAuto: true }, { blocks: true, text: false });
    const width = result.data.blocks?.reduce((w, b) => Math.max(w, b.bbox.x1), 0) || 1;
    const lines: PageLine[] = [];
    for (const block of result.data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          const words = line.words
            // Specks of dust and noise come back as words of dots and dashes: only a word with a letter or digit counts.
            .filter((w) => /[\p{L}\p{N}]/u.test(w.text))
            .map((w) => ({ text: w.text.trim(), x0: w.bbox.x0 / width, x1: w.bbox.x1 / width, confidence: w.confidence }));
          if (words.length) lines.push({ words });
        }
      }
    }
    return lines;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker).terminate();
  }
}
