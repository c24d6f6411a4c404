/**
 * XML → JSON: reads the plain element tree of a FatturaPA file (libxml.ts) against the model, building the JSON form
 * of the invoice and every problem the XML schema would report — elements missing, out of order or unknown, values
 * outside their format — each with its XML path, its JSON Pointer and its line.
 */
import type { XmlElement } from './libxml.js';
import type { Field, Group, InvoiceFormat, SimpleType } from './model-kit.js';
import { many, required, snakeCase } from './model-kit.js';
import { FORMATS, formatOfRoot } from './formats.js';
import { XMLDSIG_NAMESPACE } from './model.js';
import { child, item, ROOT_PLACE, type InvoiceProblem, type Place } from './problems.js';
import { fieldsOf } from './schema-walk.js';
import type { EInvoice } from './e-invoice.js';
import { jsonValue, valueProblem } from './values.js';

type JsonObject = { [key: string]: unknown };

const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
/** Schema hints any element may carry; validators ignore them (Flusso validates with its own schema). */
const XSI_HINTS = new Set(['schemaLocation', 'noNamespaceSchemaLocation']);

const qualifiedName = (element: XmlElement) => (element.namespace ? `{${element.namespace}}${element.name}` : element.name);

class XmlWalk {
  readonly problems: InvoiceProblem[] = [];
  /** Elements already reported as out of order, not to be reported again as unexpected. */
  readonly outOfOrder = new Set<XmlElement>();

  constructor(
    readonly root: XmlElement,
    readonly format: InvoiceFormat,
  ) {}

  problem(place: Place, kind: InvoiceProblem['kind'], message: string, line: number) {
    this.problems.push({ ...place, kind, message, line });
  }

  attributes(element: XmlElement, place: Place, allowed: readonly string[] = []) {
    for (const [name, attribute] of Object.entries(element.attributes)) {
      if (attribute.namespace === XSI_NAMESPACE && XSI_HINTS.has(attribute.name)) continue;
      if (attribute.namespace === null && allowed.includes(attribute.name)) continue;
      this.problem(place, 'unexpected', `${element.name} can't have the attribute ${name}`, element.line);
    }
  }

  simple(type: SimpleType, field: Field, element: XmlElement, place: Place): unknown {
    this.attributes(element, place);
    if (element.children.length) {
      this.problem(place, 'unexpected', `${field.xml} must hold a value (${type.format}), not the element ${element.children[0].name}`, element.line);
      return undefined;
    }
    const text = element.text === '' && field.default !== undefined ? field.default : element.text;
    const problem = valueProblem(type, text);
    if (problem) {
      this.problem(place, 'value', `${field.xml} ${problem}`, element.line);
      return undefined;
    }
    return jsonValue(type, text);
  }

  value(field: Field, element: XmlElement, place: Place): unknown {
    return typeof field.type === 'string' ? this.group(this.format.groups[field.type], element, place) : this.simple(field.type, field, element, place);
  }

  skipReported(children: XmlElement[], next: number): number {
    while (next < children.length && this.outOfOrder.has(children[next])) next++;
    return next;
  }

  /** Consumes the children that match `field` from `next` on; returns the index after them. */
  field(field: Field, children: XmlElement[], next: number, parent: XmlElement, place: Place, out: JsonObject): number {
    const at = child(place, field.json, field.xml);
    next = this.skipReported(children, next);
    const qualified = children[next];
    if (qualified && qualified.namespace !== null && qualified.name === field.xml) {
      const message = `${field.xml} must be written without a namespace: below the root, FatturaPA elements are unqualified (no prefix, no default namespace)`;
      this.problem(at, 'unexpected', message, qualified.line);
      return next + 1;
    }
    const matching: XmlElement[] = [];
    while (next < children.length && children[next].namespace === null && children[next].name === field.xml && (many(field.occurs) || matching.length === 0)) {
      matching.push(children[next++]);
    }
    if (matching.length === 0) {
      if (required(field.occurs)) {
        const later = children.slice(next).find((c) => c.namespace === null && c.name === field.xml);
        const message = later
          ? `${field.xml} is out of order: it must come before ${children[next].name}`
          : `${field.xml} is missing in ${parent.name}: ${field.meaning}`;
        if (later) this.outOfOrder.add(later);
        this.problem(at, later ? 'unexpected' : 'missing', message, later?.line ?? parent.line);
      }
      return next;
    }
    if (many(field.occurs)) {
      out[field.json] = matching.map((element, i) => this.value(field, element, item(at, i)));
    } else {
      out[field.json] = this.value(field, matching[0], at);
    }
    return next;
  }

  group(group: Group, element: XmlElement, place: Place, tail?: (children: XmlElement[], next: number) => number): JsonObject {
    const out: JsonObject = {};
    if (element !== this.root) this.attributes(element, place);
    if (element.text.trim() !== '') {
      this.problem(place, 'unexpected', `${element.name} holds text ("${element.text.trim().slice(0, 40)}") where only elements are allowed`, element.line);
    }
    const children = element.children;
    let next = 0;
    for (const particle of group.particles) {
      if (particle.kind === 'field') {
        next = this.field(particle, children, next, element, place, out);
        continue;
      }
      next = this.skipReported(children, next);
      const upcoming = children[next];
      const branch = particle.branches.find((b) => upcoming && upcoming.namespace === null && upcoming.name === b[0].xml);
      if (!branch) {
        const first = particle.branches[0][0];
        const names = particle.branches.map((b) => b.map((f) => f.xml).join(' and ')).join(', or ');
        this.problem(child(place, first.json, first.xml), 'missing', `${element.name} needs ${names}`, upcoming?.line ?? element.line);
        continue;
      }
      for (const f of branch) next = this.field(f, children, next, element, place, out);
    }
    if (tail) next = tail(children, next);
    for (const extra of children.slice(next)) {
      if (this.outOfOrder.has(extra)) continue;
      const known = fieldsOf(group).find((f) => f.xml === extra.name);
      const why = extra.namespace
        ? `${qualifiedName(extra)} is not expected in ${element.name}: FatturaPA elements below the root are written without a namespace`
        : known
          ? `${extra.name} is not expected here in ${element.name}: it appears more often than allowed or in the wrong place`
          : `${extra.name} is not an element of ${element.name}`;
      this.problem(child(place, known?.json ?? snakeCase(extra.name), extra.name), 'unexpected', why, extra.line);
    }
    return out;
  }
}

/**
 * Reads the element tree of a FatturaPA file, ordinary or simplified as its root says; `invoice` is its JSON form when
 * there is no problem, else null.
 */
export function readInvoiceTree(root: XmlElement): { invoice: EInvoice | null; problems: InvoiceProblem[] } {
  const format = formatOfRoot(root.name, root.namespace);
  if (!format) {
    const found = qualifiedName(root);
    const expected = FORMATS.map((f) => `${f.root} in the namespace ${f.namespace} (${f.title})`).join(', or ');
    const problem = { ...ROOT_PLACE, kind: 'unexpected' as const, line: root.line };
    return { invoice: null, problems: [{ ...problem, message: `The root element is ${found}; a FatturaPA invoice is ${expected}` }] };
  }
  const walk = new XmlWalk(root, format);
  const out: JsonObject = {};
  for (const attribute of format.rootAttributes) {
    const at = { pointer: `/${attribute.json}`, path: `/@${attribute.xml}` };
    const found = Object.values(root.attributes).find((a) => a.namespace === null && a.name === attribute.xml);
    if (!found) {
      if (attribute.required) walk.problem(at, 'missing', `The root element needs the attribute ${attribute.xml}: ${attribute.meaning}`, root.line);
      continue;
    }
    const problem = valueProblem(attribute.type, found.value);
    if (problem) walk.problem(at, 'value', `The attribute ${attribute.xml} ${problem}`, root.line);
    else out[attribute.json] = jsonValue(attribute.type, found.value);
  }
  walk.attributes(
    root,
    ROOT_PLACE,
    format.rootAttributes.map((a) => a.xml),
  );
  const ordered: JsonObject = { versione: out.versione, namespace: format.namespace };
  if (out.sistema_emittente !== undefined) ordered.sistema_emittente = out.sistema_emittente;
  // The optional XML signature closes the root: the JSON form carries it as written (`signature`, read-only).
  let signature: string | undefined;
  const signed = (children: XmlElement[], next: number) => {
    if (children[next]?.namespace !== XMLDSIG_NAMESPACE) return next;
    signature = children[next].source;
    return next + 1;
  };
  Object.assign(ordered, walk.group(format.groups[format.root], root, ROOT_PLACE, signed));
  if (signature !== undefined) ordered.signature = signature;
  return walk.problems.length ? { invoice: null, problems: walk.problems } : { invoice: ordered as unknown as EInvoice, problems: [] };
}
