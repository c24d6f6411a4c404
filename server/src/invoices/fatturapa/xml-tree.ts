/**
 * Builds the plain element tree of an XML text that libxml has already accepted as well-formed and that has no DOCTYPE
 * (libxml.ts guarantees both). Walking libxml's own DOM from JavaScript costs a native call and a wrapper object per
 * node, several times the parse itself; this single pass over the text does the same job for the little XML a
 * DTD-free file can hold: elements, attributes, namespaces, text, CDATA, comments, processing instructions, and the
 * five predefined entities and character references.
 */
import type { XmlElement } from './libxml.js';
import { XMLDSIG_NAMESPACE } from './model.js';

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function unescape(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (_, ref: string) =>
    ref[0] !== '#' ? PREDEFINED[ref] : String.fromCodePoint(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)),
  );
}

/** XML's end-of-line handling: CRLF and lone CR read as LF. */
const newlines = (text: string) => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);

const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const NAME_END = /[\s/>]/g;

interface Open {
  element: XmlElement;
  qname: string;
  scope: Map<string, string>;
  /** Where the start tag of an element whose source is kept begins, and the declarations it inherits. */
  kept?: { start: number; inherited: string };
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** The namespace declarations of `scope` that `own` (the element's own declarations) does not make, as attributes. */
function inheritedDeclarations(scope: Map<string, string>, own: Set<string>): string {
  return [...scope]
    .filter(([prefix]) => prefix !== 'xml' && !own.has(prefix))
    .map(([prefix, uri]) => ` ${prefix ? `xmlns:${prefix}` : 'xmlns'}="${escapeAttribute(uri)}"`)
    .join('');
}

/** The element's text from `start` to `end`, its inherited declarations written into its start tag after the name. */
const standalone = (source: string, start: number, nameEnd: number, end: number, inherited: string) =>
  source.slice(start, nameEnd) + inherited + source.slice(nameEnd, end);

/** The root element of `text` (decoded characters, BOM removed). */
export function elementTree(text: string): XmlElement {
  const source = newlines(text);
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  let line = 1;
  // The next line break not counted yet (-1: none left): a file written on one line is not searched to its end again
  // for every element.
  let nextBreak = source.indexOf('\n');
  const lineAt = (index: number) => {
    while (nextBreak !== -1 && nextBreak < index) {
      line++;
      nextBreak = source.indexOf('\n', nextBreak + 1);
    }
    return line;
  };
  let i = 0;
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    if (lt === -1) break;
    if (lt > i && stack.length) stack[stack.length - 1].element.text += unescape(source.slice(i, lt));
    if (source.startsWith('<!--', lt)) {
      i = source.indexOf('-->', lt + 4) + 3;
    } else if (source.startsWith('<![CDATA[', lt)) {
      const end = source.indexOf(']]>', lt + 9);
      stack[stack.length - 1].element.text += source.slice(lt + 9, end);
      i = end + 3;
    } else if (source.startsWith('<?', lt)) {
      i = source.indexOf('?>', lt + 2) + 2;
    } else if (source[lt + 1] === '/') {
      i = source.indexOf('>', lt) + 1;
      const closed = stack.pop();
      if (closed?.kept) closed.element.source = standalone(source, closed.kept.start, closed.kept.start + 1 + closed.qname.length, i, closed.kept.inherited);
    } else {
      const end = tagEnd(source, lt);
      const selfClosing = source[end - 1] === '/';
      NAME_END.lastIndex = lt + 1;
      const nameEnd = NAME_END.exec(source)?.index ?? end;
      const qname = source.slice(lt + 1, nameEnd);
      const parentScope = stack.length ? stack[stack.length - 1].scope : new Map([['xml', XML_NAMESPACE]]);
      const raw: [string, string][] = [];
      let scope = parentScope;
      const declared = new Set<string>();
      const attributeText = source.slice(nameEnd, selfClosing ? end - 1 : end);
      for (const match of attributeText.matchAll(ATTRIBUTE)) {
        const value = unescape((match[2] ?? match[3]).replace(/[\t\n]/g, ' '));
        const name = match[1];
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          if (scope === parentScope) scope = new Map(parentScope);
          scope.set(name === 'xmlns' ? '' : name.slice(6), value);
          declared.add(name === 'xmlns' ? '' : name.slice(6));
        } else {
          raw.push([name, value]);
        }
      }
      const resolve = (prefixed: string, isAttribute: boolean): [string | null, string] => {
        const colon = prefixed.indexOf(':');
        if (colon === -1) return [isAttribute ? null : scope.get('') || null, prefixed];
        return [scope.get(prefixed.slice(0, colon)) ?? null, prefixed.slice(colon + 1)];
      };
      const [namespace, name] = resolve(qname, false);
      const attributes: XmlElement['attributes'] = {};
      for (const [attributeName, value] of raw) {
        const [ns, local] = resolve(attributeName, true);
        attributes[attributeName] = { value, namespace: ns, name: local };
      }
      const element: XmlElement = { name, namespace, attributes, children: [], text: '', line: lineAt(lt) };
      if (stack.length) stack[stack.length - 1].element.children.push(element);
      else root ??= element;
      // A signature right below the root is kept as written (the JSON form carries it, xml-read.ts).
      const keep = stack.length === 1 && namespace === XMLDSIG_NAMESPACE;
      const kept = keep ? { start: lt, inherited: inheritedDeclarations(parentScope, declared) } : undefined;
      if (keep && selfClosing) element.source = standalone(source, lt, nameEnd, end + 1, kept!.inherited);
      if (!selfClosing) stack.push({ element, qname, scope, kept });
      i = end + 1;
    }
  }
  if (!root) throw new Error('No root element');
  return root;
}

/** Index of the `>` that closes the start tag at `start`, skipping `>` inside quoted attribute values. */
function tagEnd(source: string, start: number): number {
  let quote = '';
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return i;
    }
  }
  throw new Error('Unterminated start tag');
}
