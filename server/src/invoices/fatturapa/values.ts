/**
 * Checks one value against a simple type of the model the way an XML Schema validator does — whitespace facet, the
 * built-in type's lexical rules (a real calendar day, a decimal, an integer, base64), pattern, lengths counted in
 * characters, bounds, codes — so that a value is accepted in JSON exactly when it would be accepted in XML.
 */
import type { SimpleType } from './model-kit.js';

/** Characters XML 1.0 can carry; anything else can't be written into the file at all. */
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * XML Schema's whitespace facet: strings keep everything, normalizedString turns tabs and breaks into spaces, the rest
 * also trims and collapses. Dates are the exception the SDI's validator makes: libxml reads xs:date and xs:dateTime
 * without collapsing, so `'2019-02-15 '` is refused there and must be refused here (one verdict for XML and JSON).
 */
export function normalizeWhitespace(type: SimpleType, raw: string): string {
  if (type.base === 'string' || type.base === 'date' || type.base === 'dateTime') return raw;
  const replaced = raw.replace(/[\t\n\r]/g, ' ');
  return type.base === 'normalizedString' ? replaced : replaced.replace(/ {2,}/g, ' ').trim();
}

/** Whole values within a charset (of the control characters, XML carries only tab and line breaks, checked first). */
const CHARSET = { basic: /^[\t\n\r\u0020-\u007F]*$/, latin1: /^[\t\n\r\u0020-\u00FF]*$/ } as const;

/** An XML Schema regular expression as an anchored JavaScript one (`.` excludes only line breaks, Unicode blocks become ranges). */
export function xsdPatternToRegExp(pattern: string): RegExp {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const block = /^\\p\{Is(BasicLatin|Latin-1Supplement)\}/.exec(pattern.slice(i));
      if (block) {
        const range = block[1] === 'BasicLatin' ? '\\u0000-\\u007F' : '\\u0080-\\u00FF';
        out += inClass ? range : `[${range}]`;
        i += block[0].length - 1;
      } else {
        out += pattern.slice(i, i + 2);
        i++;
      }
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === ']') {
      inClass = false;
      out += c;
    } else if (c === '.' && !inClass) {
      out += '[^\\n\\r]';
    } else {
      out += c;
    }
  }
  return new RegExp(`^(?:${out})$`, 'u');
}

const patternCache = new Map<string, RegExp>();
function matches(pattern: string, value: string): boolean {
  let regexp = patternCache.get(pattern);
  if (!regexp) patternCache.set(pattern, (regexp = xsdPatternToRegExp(pattern)));
  return regexp.test(value);
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function validDay(year: string, month: string, day: string): boolean {
  if (/^-?0{4,}$/.test(year) || (year.replace('-', '').length > 4 && year.replace('-', '').startsWith('0'))) return false;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= (m === 2 && isLeap(Math.abs(y)) ? 29 : DAYS[m - 1]);
}

function validZone(zone: string | undefined): boolean {
  if (!zone || zone === 'Z') return true;
  const [h, m] = zone.slice(1).split(':').map(Number);
  return m <= 59 && (h < 14 || (h === 14 && m === 0));
}

const DATE = /^(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/;
const DATE_TIME = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

function lexicallyValid(type: SimpleType, value: string): boolean {
  switch (type.base) {
    case 'decimal':
      return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value);
    case 'integer':
      return /^[+-]?\d+$/.test(value);
    case 'date': {
      const m = DATE.exec(value);
      return !!m && validDay(m[1], m[2], m[3]) && validZone(m[4]);
    }
    case 'dateTime': {
      const m = DATE_TIME.exec(value);
      return !!m && validDay(m[1], m[2], m[3]) && Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59 && validZone(m[8]);
    }
    case 'base64Binary':
      return validBase64(value);
    default:
      return true;
  }
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * base64Binary as libxml judges it: characters outside the alphabet are skipped, the alphabet characters must come in
 * fours, and one or two `=` close a group of three or two whose unused bits are zero.
 */
function validBase64(value: string): boolean {
  let count = 0;
  let pad = 0;
  let last = -1;
  for (const c of value) {
    const digit = c === '=' ? 64 : BASE64.indexOf(c);
    if (digit < 0) continue;
    if (digit === 64) pad++;
    else if (pad > 0) return false;
    else {
      count++;
      last = digit;
    }
  }
  if (pad === 0) return count % 4 === 0;
  if (pad === 1) return count % 4 === 3 && (last & ~0x3c) === 0;
  if (pad === 2) return count % 4 === 2 && (last & ~0x30) === 0;
  return false;
}

/** Compares two values of an ordered type: numbers for decimals and integers, the calendar day for dates. */
function compare(type: SimpleType, a: string, b: string): number {
  if (type.base === 'date' || type.base === 'dateTime') {
    const day = (v: string) => (DATE.exec(v) ?? DATE_TIME.exec(v) ?? []).slice(1, 4).map(Number);
    const [ya, ma, da] = day(a);
    const [yb, mb, db] = day(b);
    return ya - yb || ma - mb || da - db;
  }
  return Number(a) - Number(b);
}

const quoted = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

/**
 * The problem with a value, in words a person understands, or null when the value is valid. `raw` is the text as
 * written (XML content or JSON string).
 */
export function valueProblem(type: SimpleType, raw: string): string | null {
  if (NOT_XML_CHAR.test(raw)) return `holds a character that XML cannot carry (a control character); it must be ${type.format}`;
  const value = normalizeWhitespace(type, raw);
  const wrong = () => `must be ${type.format}; got ${quoted(raw)}`;
  if (type.enumeration) {
    if (Object.hasOwn(type.enumeration, value)) return null;
    const why = type.outsideSchema?.[value];
    return `must be one of ${Object.keys(type.enumeration).join(', ')}; got ${quoted(raw)}${why ? ` (${why})` : ''}`;
  }
  if (!lexicallyValid(type, value)) return wrong();
  if (type.charset && type.charset !== 'any' && !CHARSET[type.charset].test(value)) {
    const offending = [...value].find((c) => (c.codePointAt(0) ?? 0) > (type.charset === 'basic' ? 0x7f : 0xff));
    return `must be ${type.format}; ${quoted(offending ?? '')} is outside that set`;
  }
  if (type.pattern && !matches(type.pattern, value)) return wrong();
  const length = [...value].length;
  if (type.minLength !== undefined && length < type.minLength) return length === 0 ? `is empty; it must be ${type.format}` : wrong();
  if (type.maxLength !== undefined && length > type.maxLength) return `is ${length} characters long; it must be ${type.format}`;
  if (type.minInclusive !== undefined && compare(type, value, type.minInclusive) < 0) return wrong();
  if (type.maxInclusive !== undefined && compare(type, value, type.maxInclusive) > 0) return wrong();
  return null;
}

/**
 * The value as the JSON form carries it: integers as numbers, lexical forms of typed values collapsed, text as written
 * and base64 too (its line breaks, which MIME-style encoders put every 76 characters, survive XML → JSON → XML).
 */
export function jsonValue(type: SimpleType, raw: string): string | number {
  const value = normalizeWhitespace(type, raw);
  if (type.jsonInteger) return Number(value);
  return type.base === 'string' || type.base === 'normalizedString' || type.base === 'base64Binary' ? raw : value;
}
