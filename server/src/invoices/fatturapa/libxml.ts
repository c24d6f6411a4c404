/**
 * The one file of the server that touches libxmljs2 (a native addon: it loads in one thread per process). The API and
 * the worker call it in the child processes of the XML pool (xml-pool.ts), never on their event loop. Everything
 * hostile is refused here before libxml sees it:
 *
 * - bodies over the SDI's 5 MB, empty bodies, binary data, UTF-32 and other encodings that are not ASCII-compatible
 *   (apart from UTF-16 with its BOM), and every encoding outside a short list of Unicode and Latin ones: a stateful
 *   encoding (ISO-2022-JP, UTF-7) could hide markup behind escape sequences, and a decoder other than libxml's could
 *   read a rarer one differently;
 * - any DOCTYPE or ENTITY declaration, found by scanning the *decoded* text (markup-scan.ts; a comment that mentions
 *   one is not one): no DTD means no entity, so no XXE, no billion laughs, no quadratic blow-up. The parser is also
 *   told not to touch the network, and is never given `noent` (entity substitution, which makes XXE real) nor `huge`
 *   (which lifts libxml's own limits and lets a bomb take the process down); a DTD libxml would still find is refused;
 * - files over the limits of markup-scan.ts (attributes per element, depth, name length, nodes), which would make
 *   libxml spend time out of proportion to their size.
 *
 * libxml then judges well-formedness, decoding the bytes as the file says (BOM, XML declaration: UTF-8, ISO-8859-1…),
 * and the text is turned into a plain tree of elements (XmlElement, xml-tree.ts) that the rest of the module reads.
 *
 * Schema validation with libxml (`schemaValidator`) compiles the schema on every call (libxmljs2 keeps no compiled
 * schema): about 0.6 ms for FatturaPA, several times the cost of parsing. Requests are therefore validated by the
 * model's own validator (validate.ts), which the tests hold to the same verdicts as libxml with the generated and the
 * official schema; libxml's schema validation is for the tests and for places where a second opinion is worth it.
 */
import libxml from 'libxmljs2';
import type { Document as LibxmlDocument } from 'libxmljs2';
import { DECLARATION_REFUSED, scanMarkup } from './markup-scan.js';
import { elementTree } from './xml-tree.js';

/** The SDI refuses files over 5 MB (its error 00003). */
export const MAX_INVOICE_BYTES = 5 * 1024 * 1024;

/** Why a body could not be read as XML. */
export type XmlRefusal =
  | { reason: 'too_large'; message: string }
  | { reason: 'empty'; message: string }
  | { reason: 'binary'; message: string }
  | { reason: 'encoding'; message: string }
  | { reason: 'doctype'; message: string }
  | { reason: 'too_complex'; message: string }
  | { reason: 'malformed'; message: string; line?: number };

/** An element as the rest of the module sees it: no libxml object escapes this file. */
export interface XmlElement {
  /** Local name. */
  name: string;
  /** Namespace URI, or null for an unqualified element. */
  namespace: string | null;
  /** Attributes other than namespace declarations, by qualified name (`versione`, `xsi:schemaLocation`). */
  attributes: Record<string, { value: string; namespace: string | null; name: string }>;
  children: XmlElement[];
  /** The character data directly inside the element (text and CDATA), concatenated. */
  text: string;
  line: number;
  /**
   * For an XML signature (xmldsig) below the root: the element as written, standalone (the namespace declarations it
   * inherits added to its start tag), for the JSON form to keep.
   */
  source?: string;
}

function refuse(reason: XmlRefusal['reason'], message: string): { refusal: XmlRefusal } {
  return { refusal: { reason, message } as XmlRefusal };
}

/** A view of the bytes good enough to look for markup: UTF-16 decoded, anything ASCII-compatible byte for byte. */
function markupView(bytes: Buffer): string | { refusal: XmlRefusal } {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    if (bytes.length >= 4 && b0 === 0xff && bytes[2] === 0 && bytes[3] === 0) return refuse('encoding', 'UTF-32 is not accepted: send UTF-8.');
    const le = b0 === 0xff;
    const swapped = le ? bytes : Buffer.from(bytes).swap16();
    return new TextDecoder('utf-16le').decode(swapped.subarray(2, swapped.length - (swapped.length % 2)));
  }
  if (b0 === 0 || b1 === 0) return refuse('encoding', 'The body is UTF-16 or UTF-32 without a byte order mark, or binary: send UTF-8.');
  return bytes.toString('latin1');
}

/** No network, no entity substitution, no DTD loading or validation, libxml's limits kept (no `huge`). */
const SAFE_OPTIONS = { nonet: true, noent: false, huge: false, dtdload: false, dtdvalid: false, dtdattr: false };

/**
 * The encodings Flusso reads, by their XML declaration's label (lower case), with the decoder of each: Unicode and the
 * Latin ones Italian software writes. ISO-8859-1 is decoded byte for byte (WHATWG's decoder for that label is
 * windows-1252, which libxml does not use).
 */
const ENCODINGS: Record<string, string> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'latin1',
  ascii: 'latin1',
  'iso-8859-1': 'latin1',
  'iso_8859-1': 'latin1',
  latin1: 'latin1',
  l1: 'latin1',
  'iso-8859-15': 'iso-8859-15',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
};
const UTF16 = ['utf-16', 'utf-16le', 'utf-16be'];
const ACCEPTED = 'UTF-8, UTF-16 with a byte order mark, US-ASCII, ISO-8859-1, ISO-8859-15 or windows-1252';

/** The label in the XML declaration (lower case), or null without one. */
function declaredEncoding(content: string): string | null {
  return (
    /^<\?xml\s[^>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/
      .exec(content)
      ?.slice(1)
      .find((label) => label !== undefined)
      ?.toLowerCase() ?? null
  );
}

/**
 * The characters of the file, decoded as libxml decodes them: BOM, else the XML declaration's encoding, else UTF-8.
 * `content` is the markup view without its BOM.
 */
function decode(bytes: Buffer, content: string): string | { refusal: XmlRefusal } {
  const declared = declaredEncoding(content);
  const notAccepted = () => refuse('encoding', `The encoding ${declared?.toUpperCase()} is not accepted: send ${ACCEPTED}.`);
  if (bytes[0] === 0xff || bytes[0] === 0xfe) return declared === null || UTF16.includes(declared) ? content : notAccepted();
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const label = declared ?? 'utf-8';
  const decoder = ENCODINGS[label];
  if (!decoder || (bom && decoder !== 'utf-8')) return notAccepted();
  const body = bom ? bytes.subarray(3) : bytes;
  if (decoder === 'latin1') return content;
  try {
    return new TextDecoder(decoder, { fatal: true }).decode(body);
  } catch {
    return refuse('malformed', `The body is not valid ${label.toUpperCase()} text.`);
  }
}

/**
 * Parses the file as libxml reads it. An encoding this libxml lacks (windows-1252, which Windows software writes)
 * but the decoder knew is judged on the decoded text, written as UTF-8 with the declaration saying so: the same
 * characters, on the same lines.
 */
function wellFormed(bytes: Buffer, text: string): LibxmlDocument {
  try {
    return libxml.parseXml(bytes as unknown as string, SAFE_OPTIONS);
  } catch (error) {
    if (!/^Unsupported encoding/.test(String((error as { message?: string }).message))) throw error;
    const utf8 = text.replace(/^(<\?xml[^>]*?encoding\s*=\s*["'])[^"']*/, '$1UTF-8');
    return libxml.parseXml(Buffer.from(utf8, 'utf8') as unknown as string, SAFE_OPTIONS);
  }
}

/**
 * Reads a FatturaPA file into plain elements, or says why it can't. Never throws on bad input and never expands an
 * entity.
 */
export function readXml(bytes: Buffer): { root: XmlElement } | { refusal: XmlRefusal } {
  if (bytes.length > MAX_INVOICE_BYTES) {
    return refuse('too_large', `The file is ${bytes.length} bytes; the SDI accepts at most ${MAX_INVOICE_BYTES} (5 MB).`);
  }
  const view = markupView(bytes);
  if (typeof view !== 'string') return view;
  const content = view.replace(/^(\uFEFF|\u00EF\u00BB\u00BF)/, '');
  if (content.trim() === '') return refuse('empty', 'The body is empty.');
  if (content.includes('\u0000')) return refuse('binary', 'The body holds binary data (NUL bytes), not XML text.');
  if (!/^\s*</.test(content)) return refuse('malformed', 'The body is not XML: it does not start with "<".');
  const text = decode(bytes, content);
  if (typeof text !== 'string') return text;
  // The characters as libxml will read them, not the bytes, are what the scan judges.
  const scanned = scanMarkup(text.replace(/^\uFEFF/, ''));
  if (scanned) return { refusal: scanned };

  // libxml is the judge of well-formedness (and of the encoding); the tree is then read from the text (xml-tree.ts).
  try {
    if (wellFormed(bytes, text).getDtd()) return refuse('doctype', DECLARATION_REFUSED);
  } catch (error) {
    const e = error as { message?: string; line?: number };
    const where = e.line ? ` (line ${e.line})` : '';
    return { refusal: { reason: 'malformed', message: `The XML is not well-formed${where}: ${String(e.message ?? error).trim()}`, line: e.line ?? undefined } };
  }
  return { root: elementTree(text) };
}

export interface SchemaProblem {
  message: string;
  line: number | null;
}

/**
 * libxml's own schema validation against an XML schema given as text (`baseUrl` resolves its imports), with libxml's
 * safe defaults (no network, no entity substitution) but none of readXml's refusals: it judges files by the schema
 * alone, as `xmllint --noout --schema` does. For tests and for files Flusso already holds, not for request bodies.
 */
export function schemaValidator(xsd: string, baseUrl?: string): (bytes: Buffer) => { valid: boolean; problems: SchemaProblem[] } {
  const schema = libxml.parseXml(xsd, { nonet: true, ...(baseUrl ? { baseUrl } : {}) });
  return (bytes) => {
    let doc: LibxmlDocument;
    try {
      doc = libxml.parseXml(bytes as unknown as string, SAFE_OPTIONS);
    } catch (error) {
      const e = error as { message?: string; line?: number };
      return { valid: false, problems: [{ message: String(e.message ?? error).trim(), line: e.line ?? null }] };
    }
    const valid = doc.validate(schema);
    return { valid, problems: doc.validationErrors.map((e) => ({ message: e.message.trim(), line: e.line ?? null })) };
  };
}
