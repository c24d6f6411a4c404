import { isUtf8 } from 'node:buffer';
import { ApiError, bodyPointer } from '../errors/api-error.js';

/** How deeply objects and arrays may nest in a request body; the errors page documents it. */
export const MAX_BODY_DEPTH = 32;

/**
 * Names every object inherits (`constructor`, `__proto__`, `toString`, `hasOwnProperty`…), and `prototype`.
 * class-transformer and class-validator look members up on plain objects, where these names resolve to the inherited
 * functions: such a member is silently dropped, or crashes the transformer. No body of this API has one, so each is an
 * unknown member.
 */
const INHERITED_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** The character sets a JSON body may declare (WHATWG labels: `latin1`, `iso-8859-1`, `us-ascii`… read as windows-1252). */
const READABLE_CHARSETS = new Set(['utf-8', 'windows-1252']);

/** A NUL (PostgreSQL text cannot hold one), or a surrogate without its pair (it would be stored as U+FFFD). */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '');
  return match?.[1].toLowerCase();
}

/**
 * Each byte that does not belong to a well-formed UTF-8 sequence becomes the lone surrogate U+DC80–U+DCFF (as
 * Python's `surrogateescape`): a valid decoding never yields a surrogate, so the text check finds the member that held
 * the byte and points at it, where a plain decoding would have stored U+FFFD in its place.
 */
function decodeUtf8Escaping(bytes: Buffer): string {
  let text = '';
  let run = 0;
  let at = 0;
  const continuation = (offset: number, low = 0x80, high = 0xbf) => bytes[offset] >= low && bytes[offset] <= high;
  while (at < bytes.length) {
    const lead = bytes[at];
    let length = 0;
    if (lead < 0x80) length = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) length = continuation(at + 1) ? 2 : 0;
    else if (lead >= 0xe0 && lead <= 0xef) {
      const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
      length = continuation(at + 1, low, high) && continuation(at + 2) ? 3 : 0;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      const [low, high] = lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
      length = continuation(at + 1, low, high) && continuation(at + 2) && continuation(at + 3) ? 4 : 0;
    }
    if (length > 0) {
      at += length;
      continue;
    }
    text += bytes.toString('utf8', run, at) + String.fromCharCode(0xdc00 + lead);
    run = ++at;
  }
  return text + bytes.toString('utf8', run);
}

/**
 * windows-1252's characters at 0x80–0x9F (€, quotes, dashes…), where ISO-8859-1 has C1 controls; the five bytes it
 * leaves undefined stay those controls, as the WHATWG Encoding standard reads them. Node 20's TextDecoder decodes
 * windows-1252 as ISO-8859-1, turning a client's € into U+0080.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
}

/**
 * The text of a JSON body, decoded as its Content-Type declares: UTF-8 when it names no charset (RFC 8259), or
 * windows-1252 for the ISO-8859-1 family. Any other charset is refused (415) rather than read as something the client
 * did not send.
 */
export function decodeJsonBody(bytes: Buffer, contentType: string | undefined): string {
  const label = charsetOf(contentType);
  let encoding = 'utf-8';
  if (label !== undefined) {
    try {
      encoding = new TextDecoder(label).encoding;
    } catch {
      encoding = label;
    }
  }
  if (!READABLE_CHARSETS.has(encoding)) {
    throw ApiError.of('unsupported_media_type', `Send the request body as application/json in UTF-8 (or ISO-8859-1); charset=${label} is not read.`);
  }
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  return isUtf8(bytes) ? bytes.toString('utf8') : decodeUtf8Escaping(bytes);
}

interface Node {
  value: unknown;
  depth: number;
  parent: Node | null;
  key: string | number | null;
}

function pointerOf(node: Node): string {
  const segments: Array<string | number> = [];
  for (let at: Node | null = node; at?.parent; at = at.parent) segments.unshift(at.key!);
  return segments.length ? bodyPointer(...segments) : '';
}

/** The member a text belongs to, as messages name it: the nearest member name (`to` for `/to/1`). */
function nameOf(node: Node): string {
  for (let at: Node | null = node; at; at = at.parent) if (typeof at.key === 'string') return at.key;
  return 'The request body';
}

/** 422 for a text that cannot be stored exactly as sent, pointing at its member. */
function checkText(text: string, node: Node, what: string): void {
  const found = UNSTORABLE.exec(text);
  if (!found) return;
  const detail =
    found[0] === '\u0000'
      ? `${what} must not contain NUL characters (\\u0000)`
      : `${what} must be well-formed Unicode: it holds a lone surrogate (an escaped \\uD800–\\uDFFF without its pair) or bytes that are not UTF-8, at character ${found.index}`;
  throw ApiError.of('unprocessable_entity', detail, pointerOf(node));
}

/**
 * Checks a parsed JSON body before anything walks it recursively: at most MAX_BODY_DEPTH levels of objects and arrays
 * (deeper bodies overflow class-transformer's stack), no member named after an inherited property (400 `bad_request`),
 * and every text, value or member name, storable exactly as sent: no NUL, no lone surrogate, no byte that was not
 * UTF-8 (422 `unprocessable_entity`). The one place these rules live, so every write of every DTO follows them.
 * Iterative, so that the check itself cannot overflow; the error points at the first offending member.
 */
export function checkJsonBody(body: unknown): void {
  const stack: Node[] = [{ value: body, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value, depth } = node;
    if (typeof value === 'string') checkText(value, node, nameOf(node));
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BODY_DEPTH) {
      throw ApiError.of('bad_request', `The request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep.`, pointerOf(node));
    }
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], depth: depth + 1, parent: node, key: index });
      continue;
    }
    const children = Object.entries(value).map(([key, item]): Node => ({ value: item, depth: depth + 1, parent: node, key }));
    for (const child of children) {
      const key = child.key as string;
      if (INHERITED_NAMES.has(key)) throw ApiError.of('bad_request', `The member ${key} is not allowed in this request.`, pointerOf(child));
      checkText(key, child, 'A member name');
    }
    // Reversed, so that members are checked in the order they were sent.
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]);
  }
}
