/**
 * @nestjs/swagger writes OpenAPI 3.0 schemas; the published document is OpenAPI 3.1, whose schemas are JSON Schema
 * 2020-12. This is the one pass that turns the one into the other, so no DTO spells 3.1 by hand:
 *
 * - `nullable: true` becomes `null` among the types (`type: ['string', 'null']`), and `null` joins the `enum` of a
 *   nullable enum; a nullable reference (`nullable` beside `allOf: [{$ref}]`, which 3.0 readers take as "an object")
 *   becomes `anyOf: [{$ref}, {type: 'null'}]`;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum` become the numeric bounds;
 * - a schema's `example` becomes `examples: [example]` (JSON Schema's keyword; `example` is deprecated in 3.1).
 *
 * Media types, parameters and headers keep their own `example`/`examples`: only schemas change.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Converts one schema, and the schemas inside it, in place. */
export function toJsonSchema(schema: Json): void {
  for (const key of ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']) {
    if (isObject(schema[key])) toJsonSchema(schema[key]);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (Array.isArray(schema[key])) for (const part of schema[key] as unknown[]) if (isObject(part)) toJsonSchema(part);
  }
  for (const key of ['properties', 'patternProperties', '$defs']) {
    if (isObject(schema[key])) for (const member of Object.values(schema[key])) if (isObject(member)) toJsonSchema(member);
  }

  if ('example' in schema) {
    if (!('examples' in schema)) schema.examples = [schema.example];
    delete schema.example;
  }
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[bound] !== 'boolean') continue;
    if (schema[bound] === true) schema[bound] = schema[limit];
    else delete schema[bound];
    if (schema[bound] !== undefined) delete schema[limit];
  }

  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (!nullable) return;
  const parts = schema.allOf as Json[] | undefined;
  if (parts || typeof schema.$ref === 'string') {
    // A nullable reference: the referenced schema, or null. `type: object` beside `allOf` is @nestjs/swagger's.
    const target: Json = parts ? (parts.length === 1 ? parts[0] : { allOf: parts }) : { $ref: schema.$ref };
    delete schema.allOf;
    delete schema.$ref;
    delete schema.type;
    schema.anyOf = [target, { type: 'null' }];
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null')) schema.type = [...(schema.type as string[]), 'null'];
  else if (schema.type === undefined && Array.isArray(schema.anyOf ?? schema.oneOf)) {
    const variants = (schema.anyOf ?? schema.oneOf) as Json[];
    if (!variants.some((variant) => variant.type === 'null')) variants.push({ type: 'null' });
  }
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every schema root of an operation: its parameters, request body and responses (their bodies and headers). */
function operationSchemas(operation: Json): Json[] {
  const roots: Json[] = [];
  const media = (content: unknown) => (isObject(content) ? Object.values(content).flatMap((m) => (isObject(m) && isObject(m.schema) ? [m.schema] : [])) : []);
  for (const parameter of (operation.parameters as Json[] | undefined) ?? []) if (isObject(parameter.schema)) roots.push(parameter.schema);
  if (isObject(operation.requestBody)) roots.push(...media(operation.requestBody.content));
  for (const response of Object.values((operation.responses as Json | undefined) ?? {})) {
    if (!isObject(response)) continue;
    roots.push(...media(response.content));
    for (const header of Object.values((response.headers as Json | undefined) ?? {}))
      if (isObject(header) && isObject(header.schema)) roots.push(header.schema);
  }
  return roots;
}

/** Rewrites a 3.0 document made by @nestjs/swagger as OpenAPI 3.1.0, in place; its webhooks go in the `webhooks` map. */
export function toOpenApi31(document: Json, webhooks: Record<string, Json>): void {
  document.openapi = '3.1.0';
  document.webhooks = webhooks;
  const components = (document.components ?? {}) as Json;
  const roots: Json[] = Object.values((components.schemas as Json | undefined) ?? {}).filter(isObject);
  for (const group of ['parameters', 'headers']) {
    for (const item of Object.values((components[group] as Json | undefined) ?? {})) if (isObject(item) && isObject(item.schema)) roots.push(item.schema);
  }
  for (const response of Object.values((components.responses as Json | undefined) ?? {}))
    if (isObject(response)) roots.push(...operationSchemas({ responses: { response } }));
  for (const items of [document.paths, webhooks] as Json[]) {
    for (const item of Object.values(items)) {
      if (!isObject(item)) continue;
      for (const parameter of (item.parameters as Json[] | undefined) ?? []) if (isObject(parameter.schema)) roots.push(parameter.schema);
      for (const method of HTTP_METHODS) if (isObject(item[method])) roots.push(...operationSchemas(item[method]));
    }
  }
  // Nest shares some schema objects between operations; converting is idempotent, but once is enough.
  for (const root of new Set(roots)) toJsonSchema(root);
}
