import type { OpenAPIObject, OperationObject, ReferenceObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

/**
 * Declares two rules of the body validation (validation.pipe.ts and the services' updates) in the schemas of JSON request
 * bodies, so a client or proxy validating against the document agrees with the API: a member a schema does not
 * declare is refused (400), so every object schema a request body reaches has `additionalProperties: false`; and a
 * PATCH body must name a member to change (400 otherwise), so its schema has `minProperties: 1` when no member is
 * required. Schemas that already say what they allow (the FatturaPA invoice) are left as they are.
 *
 * A member of a request body states what the API assumes when it is left out in its description, never as `default`:
 * generators that type answers (openapi-typescript 7) make a member with a `default` required, in request types too.
 */
export function documentRequestBodies(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  const seen = new Set<Json>();
  const strict = (schema: Json | undefined): void => {
    if (!schema || seen.has(schema)) return;
    seen.add(schema);
    if (typeof schema.$ref === 'string') return strict(schemas[schema.$ref.split('/').pop() as string]);
    if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const member of Object.values((schema.properties ?? {}) as Record<string, Json>)) {
      describeDefault(member);
      strict(member);
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) for (const part of (schema[key] ?? []) as Json[]) strict(part);
    strict(schema.items as Json | undefined);
  };
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item) as Array<[string, OperationObject]>) {
      const body = (operation?.requestBody as RequestBodyObject | undefined)?.content?.['application/json']?.schema as
        ReferenceObject | SchemaObject | undefined;
      if (!body) continue;
      strict(body as Json);
      const target = ('$ref' in body ? schemas[body.$ref.split('/').pop() as string] : body) as Json;
      if (method === 'patch' && !(target.required as string[] | undefined)?.length) target.minProperties = 1;
    }
  }
}

/** Moves a request member's `default` into its description: `Default: true.` */
function describeDefault(member: Json): void {
  if (member.default === undefined) return;
  const sentence = `Default: \`${JSON.stringify(member.default)}\`.`;
  member.description = [member.description, sentence].filter(Boolean).join(' ');
  delete member.default;
}
