import { isReference, resolve, schemaName, type OpenApiDocument, type SchemaObject, type SchemaOrRef } from "./openapi";

/**
 * A JSON-serialisable view of a schema. Named component schemas stay references (`kind: 'ref'`) so a
 * deep, self-referencing document (the invoice) is described once, not expanded at every use.
 */
export type SchemaNode = ObjectNode | ArrayNode | UnionNode | ScalarNode | RefNode;

export interface SchemaFacts {
  title?: string;
  /** Already rendered by the caller's Markdown renderer. */
  description?: string;
  nullable?: true;
  readOnly?: true;
  writeOnly?: true;
  deprecated?: true;
  enum?: unknown[];
  default?: unknown;
  /** Human-readable limits, e.g. "≤ 100", "pattern ^[A-Z]{3}$". */
  constraints?: string[];
}

export interface ObjectNode extends SchemaFacts {
  kind: "object";
  properties: PropertyNode[];
  additional?: SchemaNode;
}
export interface ArrayNode extends SchemaFacts {
  kind: "array";
  items: SchemaNode;
}
export interface UnionNode extends SchemaFacts {
  kind: "union";
  combinator: "oneOf" | "anyOf" | "allOf";
  options: SchemaNode[];
}
export interface ScalarNode extends SchemaFacts {
  kind: "scalar";
  type: string;
  format?: string;
}
export interface RefNode extends SchemaFacts {
  kind: "ref";
  name: string;
}
export interface PropertyNode {
  name: string;
  required: boolean;
  schema: SchemaNode;
}

export type RenderMarkdown = (markdown: string) => string;

export class SchemaBuilder {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly renderMarkdown: RenderMarkdown,
  ) {}

  /** Every component schema, keyed by name, for `ref` nodes to point at. */
  components(): Record<string, SchemaNode> {
    const schemas = this.document.components?.schemas ?? {};
    return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, this.node(schema)]));
  }

  node(input: SchemaOrRef): SchemaNode {
    if (isReference(input)) {
      const name = schemaName(input.$ref);
      return name ? { kind: "ref", name } : this.node(resolve(this.document, input));
    }
    const facts = this.facts(input);
    const types = typeList(input);
    if (types.includes("null")) facts.nullable = true;

    if (input.allOf) return this.allOf(input, facts);
    const variants = input.oneOf ?? input.anyOf;
    if (variants) {
      const options = variants.filter((option) => !isNullSchema(option));
      if (options.length < variants.length) facts.nullable = true;
      if (options.length === 1) return { ...this.node(options[0]), ...facts };
      return { kind: "union", combinator: input.oneOf ? "oneOf" : "anyOf", options: options.map((o) => this.node(o)), ...facts };
    }

    const type = types.find((t) => t !== "null") ?? inferType(input);
    if (type === "object") return this.object(input, facts);
    if (type === "array") return { kind: "array", items: this.node(input.items ?? {}), ...facts };
    return { kind: "scalar", type, ...(input.format ? { format: input.format } : {}), ...facts };
  }

  private object(input: SchemaObject, facts: SchemaFacts): ObjectNode {
    const required = new Set(input.required ?? []);
    const properties = Object.entries(input.properties ?? {}).map(([name, schema]) => ({
      name,
      required: required.has(name),
      schema: this.node(schema),
    }));
    const node: ObjectNode = { kind: "object", properties, ...facts };
    if (typeof input.additionalProperties === "object") node.additional = this.node(input.additionalProperties);
    return node;
  }

  /** allOf of objects reads best as one merged object; anything else is shown as a combination. */
  private allOf(input: SchemaObject, facts: SchemaFacts): SchemaNode {
    const parts = input.allOf ?? [];
    if (parts.length === 1 && !input.properties) return { ...this.node(parts[0]), ...facts };
    const resolved = parts.map((part) => flattenAllOf(this.document, part));
    if (resolved.every((part) => inferType(part) === "object" && !part.oneOf && !part.anyOf)) {
      const merged: SchemaObject = {
        type: "object",
        properties: Object.assign({}, ...resolved.map((p) => p.properties), input.properties),
        required: [...resolved.flatMap((p) => p.required ?? []), ...(input.required ?? [])],
      };
      return this.object(merged, facts);
    }
    return { kind: "union", combinator: "allOf", options: parts.map((p) => this.node(p)), ...facts };
  }

  private facts(input: SchemaObject): SchemaFacts {
    const facts: SchemaFacts = {};
    if (input.title) facts.title = input.title;
    if (input.description) facts.description = this.renderMarkdown(input.description);
    if (input.readOnly) facts.readOnly = true;
    if (input.writeOnly) facts.writeOnly = true;
    if (input.deprecated) facts.deprecated = true;
    if (input.enum) facts.enum = input.enum.filter((value) => value !== null);
    if (input.enum?.includes(null)) facts.nullable = true;
    if (input.const !== undefined) facts.enum = [input.const];
    if (input.default !== undefined) facts.default = input.default;
    const constraints = describeConstraints(input);
    if (constraints.length > 0) facts.constraints = constraints;
    return facts;
  }
}

function typeList(schema: SchemaObject): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

function inferType(schema: SchemaObject): string {
  const declared = typeList(schema).find((t) => t !== "null");
  if (declared) return declared;
  if (schema.properties || schema.additionalProperties) return "object";
  if (schema.items) return "array";
  if (schema.allOf) return "object";
  const sample = schema.enum?.find((value) => value !== null) ?? schema.const;
  if (sample !== undefined) return typeof sample === "number" ? "number" : typeof sample;
  return "any";
}

function isNullSchema(schema: SchemaOrRef): boolean {
  return !isReference(schema) && (schema.type === "null" || (Array.isArray(schema.type) && schema.type.join() === "null"));
}

/** Resolves a schema and inlines its own nested allOf parts, for merging. */
export function flattenAllOf(document: OpenApiDocument, input: SchemaOrRef): SchemaObject {
  const schema = resolve(document, input);
  if (!schema.allOf) return schema;
  const parts = schema.allOf.map((part) => flattenAllOf(document, part));
  const { allOf: _parts, ...own } = schema;
  return {
    ...Object.assign({}, ...parts),
    ...own,
    properties: Object.assign({}, ...parts.map((p) => p.properties), schema.properties),
    required: [...parts.flatMap((p) => p.required ?? []), ...(schema.required ?? [])],
  };
}

function describeConstraints(schema: SchemaObject): string[] {
  const limits: string[] = [];
  const range = (min?: number, max?: number, unit = "") => {
    if (min !== undefined && max !== undefined) limits.push(`${min}–${max}${unit}`);
    else if (min !== undefined) limits.push(`≥ ${min}${unit}`);
    else if (max !== undefined) limits.push(`≤ ${max}${unit}`);
  };
  range(schema.minimum, schema.maximum);
  if (schema.exclusiveMinimum !== undefined) limits.push(`> ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) limits.push(`< ${schema.exclusiveMaximum}`);
  range(schema.minLength, schema.maxLength, " characters");
  range(schema.minItems, schema.maxItems, " items");
  if (schema.pattern) limits.push(`pattern ${schema.pattern}`);
  return limits;
}

/** A short type label: "string (uuid)", "array of Money", "Money | string". */
export function typeLabel(node: SchemaNode): string {
  const label = baseLabel(node);
  return node.nullable ? `${label} | null` : label;
}

function baseLabel(node: SchemaNode): string {
  switch (node.kind) {
    case "ref":
      return node.name;
    case "scalar":
      return node.format ? `${node.type} (${node.format})` : node.type;
    case "array":
      return `array of ${baseLabel(node.items)}`;
    case "object":
      return node.additional && node.properties.length === 0 ? `map of ${baseLabel(node.additional)}` : "object";
    case "union":
      return node.combinator === "allOf" ? "all of" : node.options.map(baseLabel).join(" | ");
  }
}
