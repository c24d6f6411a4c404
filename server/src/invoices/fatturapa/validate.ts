/**
 * Validation of the JSON form of an invoice against the model: the same rules as the XML schema (required and
 * repeated elements, choices, value formats, codes), reported with JSON Pointers and XML paths. A valid invoice comes
 * back in canonical form: members in schema order, nulls gone, Flusso's extensions (model-kit.ts) gone, `namespace`
 * filled in.
 */
import type { Field, Group, InvoiceFormat, SimpleType } from './model-kit.js';
import { many, required } from './model-kit.js';
import { formatOfVersione } from './formats.js';
import { child, item, ROOT_PLACE, type InvoiceProblem, type Place } from './problems.js';
import { fieldsOf } from './schema-walk.js';
import type { EInvoice } from './e-invoice.js';
import { valueProblem } from './values.js';
import { isUuid } from '../../common/validation/uuid.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const present = (value: unknown) => value !== undefined && value !== null;
const label = (field: { json: string }) => `"${field.json}"`;

class JsonWalk {
  readonly problems: InvoiceProblem[] = [];

  constructor(readonly format: InvoiceFormat) {}

  problem(place: Place, kind: InvoiceProblem['kind'], message: string) {
    this.problems.push({ ...place, kind, message });
  }

  simple(type: SimpleType, value: Json, place: Place, name: string): Json | undefined {
    if (type.jsonInteger) {
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        this.problem(place, 'type', `${name} must be a JSON integer (${type.format})`);
        return undefined;
      }
    } else if (typeof value !== 'string') {
      const hint = typeof value === 'number' ? ' (amounts and other numbers are strings such as "22.00", so no digit is lost)' : '';
      this.problem(place, 'type', `${name} must be a string: ${type.format}${hint}`);
      return undefined;
    }
    const problem = valueProblem(type, String(value));
    if (problem) this.problem(place, 'value', `${name} ${problem}`);
    return value;
  }

  value(field: Field, value: Json, place: Place): Json | undefined {
    // An empty value takes the schema's default, as an empty element does in XML (Nazione: IT).
    if (field.default !== undefined && value === '') return field.default;
    if (typeof field.type !== 'string') return this.simple(field.type, value, place, label(field));
    if (!isObject(value)) {
      this.problem(place, 'type', `${label(field)} must be an object (${this.format.groups[field.type].meaning})`);
      return undefined;
    }
    return this.group(this.format.groups[field.type], value, place);
  }

  field(field: Field, object: JsonObject, place: Place, out: JsonObject) {
    const value = object[field.json];
    const at = child(place, field.json, field.xml);
    if (!present(value)) {
      if (required(field.occurs)) this.problem(at, 'missing', `${label(field)} is required: ${field.meaning}`);
      return;
    }
    if (!many(field.occurs)) {
      const checked = this.value(field, value, at);
      if (checked !== undefined) out[field.json] = checked;
      return;
    }
    if (!Array.isArray(value)) {
      this.problem(at, 'type', `${label(field)} must be a list (${field.meaning})`);
      return;
    }
    if (field.occurs === '+' && value.length === 0) this.problem(at, 'missing', `${label(field)} needs at least one item: ${field.meaning}`);
    const items = value.map((v, i) => this.value(field, v, item(at, i)));
    out[field.json] = items.filter((v): v is Json => v !== undefined);
  }

  group(group: Group, object: JsonObject, place: Place): JsonObject {
    const out: JsonObject = {};
    for (const particle of group.particles) {
      if (particle.kind === 'field') {
        this.field(particle, object, place, out);
        continue;
      }
      const given = particle.branches.filter((branch) => branch.some((f) => present(object[f.json])));
      const names = particle.branches.map((branch) => branch.map(label).join(' and ')).join(', or ');
      if (given.length === 0) {
        const first = particle.branches[0][0];
        this.problem(child(place, first.json, first.xml), 'missing', `Give ${names}`);
      } else if (given.length > 1) {
        const extra = given[1].find((f) => present(object[f.json])) as Field;
        this.problem(child(place, extra.json, extra.xml), 'unexpected', `Give either ${names}, not both`);
      }
      for (const f of given[0] ?? []) this.field(f, object, place, out);
    }
    // Extensions are checked and left out: the canonical form is FatturaPA's alone.
    for (const extension of group.extensions ?? []) {
      const value = object[extension.json];
      if (present(value) && (typeof value !== 'string' || !isUuid(value))) {
        this.problem(child(place, extension.json, extension.json), 'type', `${label(extension)} must be a uuid, as a string`);
      }
    }
    const known = new Set([...fieldsOf(group), ...(group.extensions ?? [])].map((f) => f.json));
    for (const key of Object.keys(object)) {
      if (!known.has(key)) this.problem(child(place, key, key), 'unexpected', `"${key}" is not a member of ${group.meaning.toLowerCase()}`);
    }
    return out;
  }
}

/**
 * Validates the JSON form of an invoice, ordinary or simplified as its `versione` says (FSM10: simplified); `invoice`
 * is its canonical form when there is no problem, else null.
 */
export function validateInvoiceJson(json: unknown): { invoice: EInvoice | null; problems: InvoiceProblem[] } {
  const format = formatOfVersione(isObject(json) ? json.versione : undefined);
  const walk = new JsonWalk(format);
  if (!isObject(json)) {
    walk.problem(ROOT_PLACE, 'type', 'The invoice must be a JSON object');
    return { invoice: null, problems: walk.problems };
  }
  const out: JsonObject = {};
  for (const attribute of format.rootAttributes) {
    const at = { pointer: `/${attribute.json}`, path: `/@${attribute.xml}` };
    const value = json[attribute.json];
    if (!present(value)) {
      if (attribute.required) walk.problem(at, 'missing', `"${attribute.json}" is required: ${attribute.meaning}`);
    } else {
      const checked = walk.simple(attribute.type, value, at, `"${attribute.json}"`);
      if (checked !== undefined) out[attribute.json] = checked;
    }
  }
  if (present(json.namespace) && json.namespace !== format.namespace) {
    walk.problem({ pointer: '/namespace', path: '/' }, 'value', `"namespace" must be ${format.namespace} (${format.title}) or left out`);
  }
  out.namespace = format.namespace;
  // `signature` is read-only (openapi.ts says why): a JSON invoice is written without it.
  const { namespace: _namespace, versione: _versione, sistema_emittente: _sistema, signature: _signature, ...rest } = json;
  Object.assign(out, walk.group(format.groups[format.root], rest, ROOT_PLACE));
  return walk.problems.length ? { invoice: null, problems: walk.problems } : { invoice: out as unknown as EInvoice, problems: [] };
}
