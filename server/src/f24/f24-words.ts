/**
 * A page as the reader sees it, from the PDF's text layer or from OCR: lines of words with their horizontal extent,
 * as fractions of the page's width (0 left, 1 right), top to bottom. Pure data.
 */
export interface PageWord {
  text: string;
  x0: number;
  x1: number;
  /** OCR's confidence (0–100); 100 for the text layer. */
  confidence: number;
}

export interface PageLine {
  words: PageWord[];
}

export type PageSource = 'text' | 'ocr';

export interface ReadPage {
  source: PageSource;
  lines: PageLine[];
}

/** Groups positioned words (top as a fraction of the page's height) into lines, left to right. */
export function groupIntoLines(words: Array<PageWord & { top: number; height: number }>): PageLine[] {
  const sorted = [...words].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const lines: Array<{ top: number; height: number; words: PageWord[] }> = [];
  for (const word of sorted) {
    const line = lines.find((l) => Math.abs(l.top - word.top) < Math.max(l.height, word.height) * 0.5);
    if (line) line.words.push(word);
    else lines.push({ top: word.top, height: word.height, words: [word] });
  }
  return lines
    .sort((a, b) => a.top - b.top)
    .map((line) => ({ words: line.words.sort((a, b) => a.x0 - b.x0).map(({ text, x0, x1, confidence }) => ({ text, x0, x1, confidence })) }));
}
