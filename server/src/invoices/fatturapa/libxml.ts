/**
 * The one file of the server that touches libxmljs2 (a native addon: it loads in one thread per process, so keep it
 * on the main thread). Everything hostile is refused here before libxml sees it:
 *
 * - bodies over the SDI's 5 MB, empty bodies, binary data, UTF-32 and other encodings that are not ASCII-compatible
 *   (apart from UTF-16 with its BOM);
 * - any DOCTYPE or ENTITY declaration, found by scanning the bytes *before* parsing: no DTD means no entity, so no
 *   XXE, no billion laughs, no quadratic blow-up. The parser is also told not to touch the network, and is never
 *   given `noent` (entity substitution, which makes XXE real) nor `huge` (which lifts libxml's own limits and lets
 *   a bomb take the process down).
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

/** The characters of the file, decoded as libxml decodes them: BOM, else the XML declaration's encoding, else UTF-8. */
function decode(bytes: Buffer, view: string): string | { refusal: XmlRefusal } {
  if (bytes[0] === 0xff || bytes[0] === 0xfe) return view.replace(/^\uFEFF/, '');
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const declared = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(view.replace(/^\u00EF\u00BB\u00BF/, ''))?.[1].toLowerCase() ?? 'utf-8';
  // ISO-8859-1 byte for byte (WHATWG's decoder for that label is windows-1252, which libxml does not use).
  if (['iso-8859-1', 'iso_8859-1', 'latin1', 'l1', 'us-ascii', 'ascii'].includes(declared)) return body.toString('latin1');
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(declared, { fatal: true });
  } catch {
    return refuse('encoding', `The encoding ${declared} is not supported: send UTF-8.`);
  }
  try {
    return decoder.decode(body);
  } catch {
    return refuse('malformed', `The body is not valid ${declared.toUpperCase()} text.`);
  }
}

/**
 * Parses the file as libxml reads it. An encoding this libxml lacks (windows-1252, which Windows software writes)
 * but the decoder knew is judged on the decoded text, written as UTF-8 with the declaration saying so: the same
 * characters, on the same lines.
 */
function wellFormed(bytes: Buffer, text: string): void {
  try {
    libxml.parseXml(bytes as unknown as string, SAFE_OPTIONS);
  } catch (error) {
    if (!/^Unsupported encoding/.test(String((error as { message?: string }).message))) throw error;
    const utf8 = text.replace(/^(<\?xml[^>]*?encoding\s*=\s*["'])[A-Za-z0-9._-]+/, '$1UTF-8');
    libxml.parseXml(Buffer.from(utf8, 'utf8') as unknown as string, SAFE_OPTIONS);
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
  if (/<!DOCTYPE/i.test(content) || /<!ENTITY/i.test(content)) {
    return refuse('doctype', 'The XML has a DOCTYPE or ENTITY declaration; FatturaPA files have none, and Flusso refuses them (no DTDs, no entities).');
  }
  if (!/^\s*</.test(content)) return refuse('malformed', 'The body is not XML: it does not start with "<".');
  const text = decode(bytes, view);
  if (typeof text !== 'string') return text;

  // libxml is the judge of well-formedness (and of the encoding); the tree is then read from the text (xml-tree.ts).
  try {
    wellFormed(bytes, text);
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
