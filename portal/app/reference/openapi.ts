// The subset of OpenAPI 3.1 the reference reads (schemas are JSON Schema: `null` is a type). Anything else in the
// document is ignored.

export interface Reference {
  $ref: string;
}

export interface SchemaObject {
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, SchemaOrRef>;
  required?: string[];
  additionalProperties?: boolean | SchemaOrRef;
  items?: SchemaOrRef;
  allOf?: SchemaOrRef[];
  oneOf?: SchemaOrRef[];
  anyOf?: SchemaOrRef[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export type SchemaOrRef = SchemaObject | Reference;

export interface MediaTypeObject {
  schema?: SchemaOrRef;
  example?: unknown;
  examples?: Record<string, { value?: unknown; summary?: string }>;
}

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  description?: string;
  required?: boolean;
  schema?: SchemaOrRef;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema?: SchemaOrRef;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, HeaderObject | Reference>;
  content?: Record<string, MediaTypeObject>;
}

/** The allowed list options our server declares on list operations. */
export interface FlussoListExtension {
  filters?: Record<string, string[]>;
  sorts?: string[];
  expansions?: string[];
  default_sort?: string;
}

export interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: Array<ParameterObject | Reference>;
  requestBody?: RequestBodyObject | Reference;
  responses?: Record<string, ResponseObject | Reference>;
  "x-flusso-list"?: FlussoListExtension;
  /** The permission an API key needs for the operation (`documents:write`…). */
  "x-permission"?: string;
}

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head", "options"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = { parameters?: Array<ParameterObject | Reference> } & {
  [method in HttpMethod]?: OperationObject;
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string; description?: string }>;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, PathItemObject>;
  /** What the API sends to the integrator's endpoints, by name. */
  webhooks?: Record<string, PathItemObject>;
  components?: {
    schemas?: Record<string, SchemaOrRef>;
    parameters?: Record<string, ParameterObject | Reference>;
    responses?: Record<string, ResponseObject | Reference>;
    requestBodies?: Record<string, RequestBodyObject | Reference>;
    headers?: Record<string, HeaderObject | Reference>;
  };
}

export function isReference(value: unknown): value is Reference {
  return typeof value === "object" && value !== null && typeof (value as Reference).$ref === "string";
}

/** Follows local `$ref`s ("#/components/...") until a concrete object; throws on anything else. */
export function resolve<T>(document: OpenApiDocument, value: T | Reference): T {
  const seen = new Set<string>();
  let current: unknown = value;
  while (isReference(current)) {
    const pointer = current.$ref;
    if (!pointer.startsWith("#/")) throw new Error(`Only local references are supported: ${pointer}`);
    if (seen.has(pointer)) throw new Error(`Circular reference: ${pointer}`);
    seen.add(pointer);
    current = pointer
      .slice(2)
      .split("/")
      .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
    if (current === undefined) throw new Error(`Unresolved reference: ${pointer}`);
  }
  return current as T;
}

/** The component schema name a `$ref` points at, if it points at one. */
export function schemaName(ref: string): string | undefined {
  const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
  return match?.[1];
}
