import { isReference, resolve, type MediaTypeObject, type OpenApiDocument, type SchemaOrRef } from "./openapi";
import { flattenAllOf } from "./schema";

const MAX_DEPTH = 12;

/** Example values by string format, so generated samples look like real requests. */
const FORMAT_EXAMPLES: Record<string, string> = {
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  date: "2026-01-15",
  "date-time": "2026-01-15T09:30:00Z",
  email: "developers@flusso.example",
  uri: "https://example.com",
  url: "https://example.com",
};

/** The example a media type declares, or one generated from its schema. */
export function mediaExample(document: OpenApiDocument, media: MediaTypeObject): unknown {
  if (media.example !== undefined) return media.example;
  const named = Object.values(media.examples ?? {})[0];
  if (named) {
    const value = resolve(document, named);
    if (value.value !== undefined) return value.value;
  }
  if (!media.schema) return undefined;
  // A binary body (a signed file) is no text an example could be made up for.
  const schema = resolve(document, media.schema) as { type?: unknown; format?: string; contentMediaType?: string };
  const binary =
    schema.type === "string" && (schema.format === "binary" || /^(?!text\/)(?!.*(json|xml)).+\/.+/.test(schema.contentMediaType ?? ""));
  return binary ? undefined : schemaExample(document, media.schema);
}

/**
 * An example value for a schema: its own example, default or first enum value when it has one;
 * otherwise built from its structure. Optional members appear only when they carry an example of
 * their own (or when nothing at the top is required), so deep bodies (the invoice) stay readable.
 */
export function schemaExample(document: OpenApiDocument, input: SchemaOrRef, depth = 0, seen: string[] = []): unknown {
  if (isReference(input)) {
    if (seen.includes(input.$ref) || depth > MAX_DEPTH) return undefined;
    return schemaExample(document, resolve(document, input), depth, [...seen, input.$ref]);
  }
  const schema = input.allOf ? flattenAllOf(document, input) : input;
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  const firstEnum = schema.enum?.find((value) => value !== null);
  if (firstEnum !== undefined) return firstEnum;
  const variant = (schema.oneOf ?? schema.anyOf)?.find((option) => isReference(option) || option.type !== "null");
  if (variant) return schemaExample(document, variant, depth + 1, seen);

  const type = [schema.type].flat().find((t) => t && t !== "null");
  if (type === "object" || (!type && schema.properties)) {
    const required = new Set(schema.required ?? []);
    // A top-level body with nothing required (a PATCH) shows every member instead of an empty object.
    const showAll = depth === 0 && required.size === 0;
    const entries = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
      if (!showAll && !required.has(name) && !hasOwnExample(document, property)) return [];
      const value = schemaExample(document, property, depth + 1, seen);
      return value === undefined ? [] : [[name, value] as const];
    });
    return Object.fromEntries(entries);
  }
  if (type === "array" || (!type && schema.items)) {
    const item = schema.items ? schemaExample(document, schema.items, depth + 1, seen) : undefined;
    return item === undefined ? [] : [item];
  }
  if (type === "integer" || type === "number") return schema.minimum ?? 1;
  if (type === "boolean") return true;
  if (type === "string") return (schema.format && FORMAT_EXAMPLES[schema.format]) ?? "string";
  return undefined;
}

/** A value the schema itself suggests (example, default, enum, well-known format), never a generic placeholder. */
export function declaredExample(document: OpenApiDocument, input: SchemaOrRef): unknown {
  const schema = resolve(document, input);
  const value = schema.example ?? schema.examples?.[0] ?? schema.default ?? schema.const ?? schema.enum?.find((v) => v !== null);
  return value ?? (schema.format ? FORMAT_EXAMPLES[schema.format] : undefined);
}

function hasOwnExample(document: OpenApiDocument, input: SchemaOrRef): boolean {
  const schema = resolve(document, input);
  return schema.example !== undefined || (schema.examples?.length ?? 0) > 0;
}
