/**
 * The OpenAPI (3.0, JSON Schema) description of the JSON invoice, generated from the model: one component per block
 * of the invoice, every member documented with its XML element name, official field number, meaning and format, so
 * the API reference shows every sub-field. The HTTP layer adds these to the OpenAPI document's components.
 */
import type { Extension, Field, Group, InvoiceFormat, SimpleType } from './model-kit.js';
import { many, required } from './model-kit.js';
import { ORDINARY } from './model.js';
import { SIMPLIFIED } from './simplified-model.js';
import { fieldNumbers, fieldsOf } from './schema-walk.js';
import { xsdPatternToRegExp } from './values.js';

/** The subset of an OpenAPI 3.0 schema object these components use. */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  enum?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  writeOnly?: boolean;
  readOnly?: boolean;
  example?: unknown;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
}

/**
 * Component name of a block: `DatiRiepilogo` → `InvoiceDatiRiepilogo`, the root `Invoice`; for the simplified invoice
 * `SimplifiedInvoiceDatiIVA` and `SimplifiedInvoice`.
 */
export const componentName = (group: string, format: InvoiceFormat = ORDINARY): string =>
  group === format.root ? format.component : `${format.componentPrefix}${group}`;

const CHARSET_PATTERN = { basic: '^[\\u0000-\\u007F]*$', latin1: '^[\\u0000-\\u00FF]*$' } as const;

function simpleSchema(type: SimpleType, description: string): JsonSchema {
  if (type.jsonInteger) return { type: 'integer', minimum: Number(type.minInclusive), maximum: Number(type.maxInclusive), description };
  const schema: JsonSchema = { type: 'string', description };
  if (type.enumeration) schema.enum = Object.keys(type.enumeration);
  if (type.pattern) schema.pattern = xsdPatternToRegExp(type.pattern).source;
  else if (type.charset && type.charset !== 'any') schema.pattern = CHARSET_PATTERN[type.charset];
  if (type.minLength !== undefined) schema.minLength = type.minLength;
  if (type.maxLength !== undefined) schema.maxLength = type.maxLength;
  if (type.base === 'date') schema.format = 'date';
  if (type.base === 'dateTime') schema.format = 'date-time';
  if (type.base === 'base64Binary') schema.format = 'byte';
  return schema;
}

function describe(field: Field, number: string | undefined): string {
  const where = number ? ` (${number})` : '';
  if (typeof field.type === 'string') return `**${field.xml}**${where}: ${field.meaning}.`;
  const codes = field.type.enumeration
    ? ` Codes: ${Object.entries(field.type.enumeration)
        .map(([code, meaning]) => `\`${code}\` ${meaning}`)
        .join('; ')}.`
    : '';
  const refused = field.type.outsideSchema
    ? ` Not accepted: ${Object.entries(field.type.outsideSchema)
        .map(([code, why]) => `\`${code}\` (${why})`)
        .join('; ')}.`
    : '';
  return `**${field.xml}**${where}: ${field.meaning}. Format: ${field.type.format}.${codes}${refused}`;
}

function propertySchema(format: InvoiceFormat, field: Field, number: string | undefined): JsonSchema {
  const description = describe(field, number);
  const single: JsonSchema =
    typeof field.type === 'string'
      ? { allOf: [{ $ref: `#/components/schemas/${componentName(field.type, format)}` }], description }
      : simpleSchema(field.type, description);
  if (!many(field.occurs)) return single;
  const items: JsonSchema =
    typeof field.type === 'string' ? { $ref: `#/components/schemas/${componentName(field.type, format)}` } : simpleSchema(field.type, field.meaning);
  return { type: 'array', items, ...(field.occurs === '+' ? { minItems: 1 } : {}), description };
}

/** A Flusso extension: in requests only, so write-only, and said to be no FatturaPA element. */
function extensionSchema(extension: Extension): JsonSchema {
  return {
    type: 'string',
    format: extension.format,
    writeOnly: true,
    description: `**Flusso extension**, not a FatturaPA element: accepted in requests, never written to the XML, never stored or answered. ${extension.meaning}.`,
  };
}

function objectSchema(format: InvoiceFormat, group: Group, numbers: Map<Field, string>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const requiredMembers: string[] = [];
  for (const field of fieldsOf(group)) properties[field.json] = propertySchema(format, field, numbers.get(field));
  for (const extension of group.extensions ?? []) properties[extension.json] = extensionSchema(extension);
  for (const particle of group.particles) if (particle.kind === 'field' && required(particle.occurs)) requiredMembers.push(particle.json);
  const description = `${group.meaning}.`;
  const choice = group.particles.find((p) => p.kind === 'choice');
  if (!choice)
    return { type: 'object', description, properties, additionalProperties: false, ...(requiredMembers.length ? { required: requiredMembers } : {}) };
  // Exactly one branch (`denominazione`, or `nome` and `cognome`): one whole object per branch, each closed to the
  // members of the others, so generated clients get a union of two object types and readers see every member.
  const branches = choice.branches.map((branch) => branch.map((f) => f.json));
  return {
    type: 'object',
    description,
    oneOf: branches.map((branch, i) => {
      const others = new Set(branches.filter((_, j) => j !== i).flat());
      return {
        type: 'object',
        description: `With ${branch.map((member) => `\`${member}\``).join(' and ')}.`,
        properties: Object.fromEntries(Object.entries(properties).filter(([member]) => !others.has(member))),
        required: [...requiredMembers, ...branch],
        additionalProperties: false,
      };
    }),
  };
}

/** What the root of each format's JSON form is, for the reference. */
const ROOT_DESCRIPTION: Record<string, string> = {
  Invoice:
    'An Italian electronic invoice (FatturaPA 1.2.3, FPA12 or FPR12) in JSON: each member is a FatturaPA element named in snake_case, in the same nesting. Amounts and other decimals are strings written as the XML wants them ("1234.50"); giorni_termini_pagamento, numero_colli and riferimento_numero_linea are integers.',
  SimplifiedInvoice:
    'An Italian simplified electronic invoice (FatturaPA FSM10, schema 1.0.1: TD07 invoice, TD08 credit note, TD09 debit note, art. 21-bis DPR 633/72; a TD07 totals at most 400.00 euro) in JSON: each member is an element of the simplified format named in snake_case, in the same nesting. Each good or service (`dati_beni_servizi`) has its amount VAT included (`importo`) and its VAT as an amount (`dati_iva.imposta`) or a rate (`dati_iva.aliquota`). Amounts are strings written as the XML wants them ("25.00").',
};

function formatSchemas(format: InvoiceFormat): Record<string, JsonSchema> {
  const numbers = fieldNumbers(format);
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, group] of Object.entries(format.groups)) schemas[componentName(name, format)] = objectSchema(format, group, numbers);
  const root = schemas[format.component];
  const attributes = Object.fromEntries(
    format.rootAttributes.map((a) => [a.json, simpleSchema(a.type, `**${a.xml}** (attribute of the root): ${a.meaning}. Format: ${a.type.format}.`)]),
  );
  root.description = ROOT_DESCRIPTION[format.component];
  root.properties = {
    versione: attributes.versione,
    namespace: { type: 'string', enum: [format.namespace], description: 'The FatturaPA namespace; optional in requests, always present in answers.' },
    sistema_emittente: attributes.sistema_emittente,
    ...root.properties,
    signature: {
      type: 'string',
      readOnly: true,
      description:
        'The XML signature (`ds:Signature`, for example XAdES) that closes an invoice received as an XML file, as written there (its namespace declarations included), so the JSON form loses nothing of the file. Read-only: a request may send it back, and it is ignored: an invoice sent as JSON is written without a signature, as a signature holds only for the bytes it signed. The stored XML file (`xml_url`) is always the one received.',
    },
  };
  root.required = ['versione', ...(root.required ?? [])];
  // Flusso assigns the ProgressivoInvio: a JSON invoice may leave it out; answers always carry it.
  const transmission = schemas[componentName('DatiTrasmissione', format)];
  transmission.required = transmission.required?.filter((member) => member !== 'progressivo_invio');
  const progressivo = transmission.properties!.progressivo_invio;
  progressivo.description = `${progressivo.description} Optional in requests (Flusso assigns its own); always present in answers.`;
  return schemas;
}

/**
 * The component schemas of the JSON invoice, keyed by component name: the ordinary invoice's (`Invoice`,
 * `InvoiceDatiRiepilogo`…) and the simplified invoice's (`SimplifiedInvoice`, `SimplifiedInvoiceDatiIVA`…).
 */
export function invoiceJsonSchemas(): Record<string, JsonSchema> {
  const either: JsonSchema = {
    description:
      'One e-invoice in JSON: an ordinary FatturaPA invoice (`Invoice`, `versione` FPA12 or FPR12) or a simplified one (`SimplifiedInvoice`, `versione` FSM10). `versione` says which.',
    oneOf: [ORDINARY, SIMPLIFIED].map((format) => ({ $ref: `#/components/schemas/${format.component}` })),
  };
  return { ...formatSchemas(ORDINARY), ...formatSchemas(SIMPLIFIED), [E_INVOICE_COMPONENT]: either };
}

/** The component of a JSON invoice of either format, as create-invoice takes it. */
export const E_INVOICE_COMPONENT = 'EInvoice';
