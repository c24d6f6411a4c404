/**
 * The vocabulary the FatturaPA model (model.ts) is written in: simple types (one per value format), groups (the
 * complex elements) and fields (a child element of a group, with its cardinality and meaning). Everything else in this
 * folder — the XSD, the JSON Schema, the JSON ⇄ XML conversion, the validator — is derived from declarations made
 * with these few functions. Extensions are the exception that proves it: JSON members of Flusso's, not FatturaPA's.
 */

/** How a value is written: the XML Schema built-in type it derives from. */
export type Base = 'string' | 'normalizedString' | 'token' | 'decimal' | 'integer' | 'date' | 'dateTime' | 'base64Binary';

/** Which characters a text may hold: Basic Latin (U+0000–U+007F), Latin-1 (U+0000–U+00FF) or any. */
export type Charset = 'basic' | 'latin1' | 'any';

export interface SimpleType {
  name: string;
  base: Base;
  /** What a person should write, in plain words (used in error messages and documentation). */
  format: string;
  charset?: Charset;
  minLength?: number;
  maxLength?: number;
  /** An XML Schema regular expression (implicitly anchored), when the charset and lengths don't say it all. */
  pattern?: string;
  minInclusive?: string;
  maxInclusive?: string;
  /** Allowed codes and their meaning (English, then the official Italian wording). */
  enumeration?: Readonly<Record<string, string>>;
  /**
   * Codes the product specification lists but schema 1.2.3 does not accept for an ordinary invoice; kept here so the
   * documentation can say why they are refused.
   */
  outsideSchema?: Readonly<Record<string, string>>;
  /** The value is a JSON integer (the spec's integer sub-fields); every other value is a JSON string. */
  jsonInteger?: boolean;
}

/** Cardinality: exactly one, optional, zero or more, one or more. */
export type Occurs = '1' | '?' | '*' | '+';

export interface Field {
  kind: 'field';
  /** The XML element name (Italian, as in the official specification). */
  xml: string;
  /** The JSON member name: the XML name in snake_case. */
  json: string;
  /** A simple type (SimpleType) or a group name (key of GROUPS). */
  type: SimpleType | string;
  occurs: Occurs;
  /** One line of English saying what the element holds. */
  meaning: string;
  /** Value of an empty element (the schema's `default`). */
  default?: string;
}

/** Alternative runs of fields; exactly one branch is present (Denominazione, or Nome and Cognome). */
export interface Choice {
  kind: 'choice';
  branches: readonly (readonly Field[])[];
}

export type Particle = Field | Choice;

/**
 * A member of Flusso's JSON form that is no FatturaPA element: a request may send it, the OpenAPI schema documents it
 * (write-only), and nothing else has it: not the XML, the XSD, the generated types or the stored invoice. The HTTP
 * layer resolves it before the invoice is validated; validation checks its format and drops it.
 */
export interface Extension {
  json: string;
  /** The only format extensions use: the uuid of a resource of the company. */
  format: 'uuid';
  /** What it does, in English, for the reference. */
  meaning: string;
}

export interface Group {
  /** One line of English saying what the block is. */
  meaning: string;
  particles: readonly Particle[];
  /** Flusso's JSON-only members of the block, after its elements. */
  extensions?: readonly Extension[];
}

export const many = (occurs: Occurs): boolean => occurs === '*' || occurs === '+';
export const required = (occurs: Occurs): boolean => occurs === '1' || occurs === '+';

/** `IdFiscaleIVA` → `id_fiscale_iva`, `CodiceCUP` → `codice_cup`, `Art73` → `art_73`, `CFQuietanzante` → `cf_quietanzante`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-zA-Z])([0-9])/g, '$1_$2')
    .toLowerCase();
}

export function field(xml: string, type: SimpleType | string, occurs: Occurs, meaning: string, extra: { default?: string } = {}): Field {
  return { kind: 'field', xml, json: snakeCase(xml), type, occurs, meaning, ...extra };
}

export function choice(...branches: Field[][]): Choice {
  return { kind: 'choice', branches };
}

export function group(meaning: string, particles: Particle[], extensions?: Extension[]): Group {
  return extensions ? { meaning, particles, extensions } : { meaning, particles };
}

export function extension(json: string, format: Extension['format'], meaning: string): Extension {
  return { json, format, meaning };
}

/** Text in one of the charsets, `min`–`max` characters long (tabs and line breaks count as spaces). */
export function text(name: string, charset: Charset, min: number, max: number, base: Base = 'normalizedString'): SimpleType {
  const chars = { basic: 'Basic Latin (ASCII)', latin1: 'Latin-1', any: 'any' }[charset];
  return { name, base, charset, minLength: min, maxLength: max, format: `text of ${min === max ? min : `${min} to ${max}`} ${chars} characters` };
}

/** A code matching an XML Schema pattern. */
export function code(name: string, pattern: string, format: string, base: Base = 'string'): SimpleType {
  return { name, base, pattern, format };
}

export function codes(name: string, enumeration: Record<string, string>, outsideSchema?: Record<string, string>): SimpleType {
  return { name, base: 'string', enumeration, outsideSchema, format: `one of ${Object.keys(enumeration).join(', ')}` };
}

/** A decimal written with the digits the pattern fixes (FatturaPA amounts always have a dot and decimals). */
export function decimal(name: string, pattern: string, format: string, maxInclusive?: string): SimpleType {
  return { name, base: 'decimal', pattern, format, maxInclusive };
}

export function integer(name: string, min: number, max: number, jsonInteger = false): SimpleType {
  return { name, base: 'integer', minInclusive: String(min), maxInclusive: String(max), jsonInteger, format: `a whole number from ${min} to ${max}` };
}

/** An attribute of the root element, with the JSON member that carries it. */
export interface RootAttribute {
  xml: string;
  json: string;
  type: SimpleType;
  required: boolean;
  meaning: string;
}

/**
 * One FatturaPA format as a whole: the ordinary invoice (FPA12, FPR12: model.ts) or the simplified one (FSM10:
 * simplified-model.ts). Every generator of this folder takes one and knows nothing else of either.
 */
export interface InvoiceFormat {
  /** The FormatoTrasmissione codes (and root `versione`) of the format. */
  versions: readonly string[];
  namespace: string;
  /** The version attribute of the generated schema (1.2.3, 1.0.1). */
  schemaVersion: string;
  /** The root element's name, also the name of its group in `groups`. */
  root: string;
  groups: Record<string, Group>;
  /** Every simple type, in the order the generated schema lists them. */
  types: readonly SimpleType[];
  rootAttributes: readonly RootAttribute[];
  /** The name of the root's OpenAPI component and TypeScript type (`Invoice`); the blocks' are `<prefix><block>`. */
  component: string;
  /** What prefixes the blocks' OpenAPI components (`Invoice` → `InvoiceDatiRiepilogo`) and TypeScript types (`` → `DatiRiepilogo`). */
  componentPrefix: string;
  typePrefix: string;
  /** In words, for documentation and messages: `FatturaPA 1.2.3 ordinary invoice (FPA12, FPR12)`. */
  title: string;
}
