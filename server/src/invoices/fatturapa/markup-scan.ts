/**
 * The pre-scan of a file's decoded text, run before libxml sees it (libxml.ts): one linear pass that finds
 * declarations (`<!DOCTYPE`, `<!ENTITY`…) outside comments, CDATA sections and processing instructions, and holds the
 * file to limits on what libxml would spend time on. libxml's check for duplicate attributes is quadratic in the
 * attributes of one element (100,000 attributes: minutes); depth, long names and node counts cost it stack, memory and
 * time. A FatturaPA file, even the largest the SDI takes, is far within every limit.
 */

/** The limits of a file Flusso reads: the README and the portal's invoice guide state them. */
export const XML_LIMITS = {
  /** Attributes of one element, namespace declarations included (a FatturaPA root has at most 6). */
  attributesPerElement: 32,
  /** Elements open at once (a FatturaPA file nests about 8 deep). */
  depth: 64,
  /** Characters of an element's or an attribute's qualified name (FatturaPA's longest has 36). */
  nameLength: 128,
  /** Elements, attributes, comments and processing instructions of the whole file (25,000 lines: about 150,000). */
  nodes: 500_000,
} as const;

export const DECLARATION_REFUSED =
  'The XML has a DOCTYPE, ENTITY or other declaration; FatturaPA files have none, and Flusso refuses them (no DTDs, no entities).';

export interface ScanRefusal {
  reason: 'doctype' | 'too_complex';
  message: string;
}

const tooComplex = (message: string): ScanRefusal => ({ reason: 'too_complex', message: `${message}; Flusso refuses such files before reading them.` });

const isNameEnd = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '/' || c === '>' || c === '=';

/**
 * Judges the decoded text (BOM removed): a refusal, or null when libxml may read it. What is not well-formed is left
 * to libxml's verdict, except that limits are counted as the scan goes, also in a tag that never ends.
 */
export function scanMarkup(text: string): ScanRefusal | null {
  let depth = 0;
  let nodes = 0;
  let i = 0;
  const countNode = () => ++nodes > XML_LIMITS.nodes;
  const nodesRefusal = () => tooComplex(`The file has more than ${XML_LIMITS.nodes} elements, attributes, comments and processing instructions`);
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt === -1) return null;
    const skipTo = (terminator: string, from: number) => {
      const end = text.indexOf(terminator, from);
      return end === -1 ? text.length : end + terminator.length;
    };
    if (text.startsWith('<!--', lt)) {
      i = skipTo('-->', lt + 4);
      if (countNode()) return nodesRefusal();
    } else if (text.startsWith('<![CDATA[', lt)) {
      i = skipTo(']]>', lt + 9);
    } else if (text[lt + 1] === '!') {
      return { reason: 'doctype', message: DECLARATION_REFUSED };
    } else if (text[lt + 1] === '?') {
      i = skipTo('?>', lt + 2);
      if (countNode()) return nodesRefusal();
    } else if (text[lt + 1] === '/') {
      depth--;
      i = skipTo('>', lt + 2);
    } else {
      // A start tag: its name, then attributes (counted by their `=` outside quoted values) up to the `>`.
      let attributes = 0;
      let nameLength = 0;
      let quote = '';
      let j = lt + 1;
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") {
          quote = c;
        } else if (c === '>') {
          break;
        } else if (isNameEnd(c)) {
          nameLength = 0;
          if (c === '=') {
            if (++attributes > XML_LIMITS.attributesPerElement) {
              return tooComplex(`An element has more than ${XML_LIMITS.attributesPerElement} attributes (line ${lineOf(text, lt)})`);
            }
            if (countNode()) return nodesRefusal();
          }
        } else if (++nameLength > XML_LIMITS.nameLength) {
          return tooComplex(`A name is longer than ${XML_LIMITS.nameLength} characters (line ${lineOf(text, j)})`);
        }
      }
      if (countNode()) return nodesRefusal();
      if (text[j - 1] !== '/' && ++depth > XML_LIMITS.depth) {
        return tooComplex(`Elements are nested more than ${XML_LIMITS.depth} deep (line ${lineOf(text, lt)})`);
      }
      i = j + 1;
    }
  }
}

/** The line of a position, counted only when a refusal names it. */
function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
