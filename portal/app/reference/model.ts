import { declaredExample, mediaExample } from "./example";
import {
  HTTP_METHODS,
  resolve,
  type OpenApiDocument,
  type HeaderObject,
  type OperationObject,
  type ParameterObject,
  type PathItemObject,
  type RequestBodyObject,
  type ResponseObject,
} from "./openapi";
import { SchemaBuilder, type RenderMarkdown, type SchemaNode } from "./schema";

/** What the reference page shows, derived from the OpenAPI document alone. */
export interface ReferenceModel {
  title: string;
  version: string;
  description?: string;
  tags: TagView[];
  /** Component schemas that `ref` nodes point at. */
  schemas: Record<string, SchemaNode>;
}

export interface TagView {
  name: string;
  description?: string;
  operations: OperationView[];
}

export interface OperationView {
  id: string;
  method: string;
  /** Full path template including the API base path, e.g. /api/v1/companies/{company_id}/flows; a webhook's name. */
  path: string;
  /** Sent by Flusso to the integrator's endpoint (`webhooks`): nothing to try, no request samples. */
  webhook?: true;
  tag: string;
  summary: string;
  description?: string;
  deprecated?: true;
  /** The permission an API key needs for it (`x-permission`), e.g. `documents:write`. */
  permission?: string;
  parameters: ParameterView[];
  list?: ListOptions;
  requestBody?: BodyView;
  responses: ResponseView[];
  /** An example request, the input of the code samples and the try-it panel. */
  example: RequestExample;
}

export interface ParameterView {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: SchemaNode;
  example?: string;
}

export interface ListOptions {
  filters: Array<{ field: string; operators: string[] }>;
  sorts: string[];
  expansions: string[];
  defaultSort?: string;
}

export interface BodyView {
  /** The first media type the body may be sent as: the example request's. */
  contentType: string;
  /** Every media type the body may be sent as, in the document's order, each with its own example; only when there are several (an invoice as JSON or as XML). */
  mediaTypes?: MediaTypeView[];
  required: boolean;
  description?: string;
  schema?: SchemaNode;
}

export interface MediaTypeView {
  contentType: string;
  example?: unknown;
}

export interface ResponseView {
  status: string;
  description?: string;
  /** Response headers, in the document's order. */
  headers?: HeaderView[];
  contentType?: string;
  schema?: SchemaNode;
  example?: unknown;
}

export interface HeaderView {
  name: string;
  required: boolean;
  description?: string;
  schema: SchemaNode;
}

export interface RequestExample {
  method: string;
  /** Path with example values in place of its parameters. */
  path: string;
  query: Array<[string, string]>;
  contentType?: string;
  body?: unknown;
}

const UNTAGGED = "Other";
const PLAIN_STRING: SchemaNode = { kind: "scalar", type: "string" };

export function buildReferenceModel(document: OpenApiDocument, renderMarkdown: RenderMarkdown = (text) => text): ReferenceModel {
  const schemas = new SchemaBuilder(document, renderMarkdown);
  const basePath = apiBasePath(document);
  const build = (items: Record<string, PathItemObject> | undefined, prefix: string, webhook?: true) =>
    Object.entries(items ?? {}).flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((method) => {
        const operation = item[method];
        return operation ? [buildOperation(document, schemas, renderMarkdown, prefix + path, method, item, operation, webhook)] : [];
      }),
    );
  // Webhooks follow the operations, so a tag of their own comes after the operations' tags.
  const operations = [...build(document.paths, basePath), ...build(document.webhooks, "", true)];

  // Tags keep the document's order; tags used only on operations follow in order of appearance.
  const declared = document.tags ?? [];
  const names = [...new Set([...declared.map((t) => t.name), ...operations.map((o) => o.tag)])];
  const tags = names
    .map((name) => ({
      name,
      ...optional("description", declared.find((t) => t.name === name)?.description, renderMarkdown),
      operations: operations.filter((o) => o.tag === name),
    }))
    .filter((tag) => tag.operations.length > 0);

  return {
    title: document.info.title,
    version: document.info.version,
    ...optional("description", document.info.description, renderMarkdown),
    tags,
    schemas: schemas.components(),
  };
}

/**
 * The media types a request can be shown in: those the document gives an example for, and the example request's own.
 * A type without one (a signed invoice file, which only its signer can make) is named, but no request is made up.
 */
export function exampleMediaTypes(operation: OperationView): string[] | undefined {
  return operation.requestBody?.mediaTypes
    ?.filter((media) => media.example !== undefined || media.contentType === operation.example.contentType)
    .map((media) => media.contentType);
}

/** The operation's example request with its body sent as another of its media types, with that type's example. */
export function exampleAs(operation: OperationView, contentType: string): RequestExample {
  const media = operation.requestBody?.mediaTypes?.find((m) => m.contentType === contentType);
  if (!media || contentType === operation.example.contentType) return operation.example;
  const { body: _body, ...example } = operation.example;
  return { ...example, contentType, ...(media.example === undefined ? {} : { body: media.example }) };
}

/**
 * The path prefix every operation is served under. The document may either spell it in each path
 * or in its server URL (https://host/api/v1); both read the same way in the reference.
 */
export function apiBasePath(document: OpenApiDocument): string {
  const server = document.servers?.[0]?.url;
  if (!server) return "";
  const prefix = new URL(server, "https://placeholder.invalid").pathname.replace(/\/$/, "");
  const paths = Object.keys(document.paths ?? {});
  return paths.length > 0 && paths.every((p) => p.startsWith(`${prefix}/`)) ? "" : prefix;
}

function buildOperation(
  document: OpenApiDocument,
  schemas: SchemaBuilder,
  renderMarkdown: RenderMarkdown,
  path: string,
  method: string,
  item: PathItemObject,
  operation: OperationObject,
  webhook?: true,
): OperationView {
  const list = listOptions(operation);
  const parameters = mergeParameters(document, item, operation)
    .filter((parameter) => !isListFilter(parameter, list))
    .map((parameter) => ({
      name: parameter.name,
      in: parameter.in as ParameterView["in"],
      required: parameter.in === "path" || Boolean(parameter.required),
      ...optional("description", parameter.description, renderMarkdown),
      schema: parameter.schema ? schemas.node(parameter.schema) : PLAIN_STRING,
      ...optional("example", parameterExample(document, parameter)),
    }));
  const body = operation.requestBody ? resolve<RequestBodyObject>(document, operation.requestBody) : undefined;
  const bodyMedia = Object.entries(body?.content ?? {});
  const [contentType, media] = bodyMedia[0] ?? [];
  const id = operation.operationId ?? `${method}${path.replace(/\W+/g, "_")}`;

  return {
    id,
    method: method.toUpperCase(),
    path,
    ...optional("webhook", webhook),
    tag: operation.tags?.[0] ?? UNTAGGED,
    summary: operation.summary ?? `${method.toUpperCase()} ${path}`,
    ...optional("description", operation.description, renderMarkdown),
    ...(operation.deprecated ? { deprecated: true as const } : {}),
    ...optional("permission", operation["x-permission"]),
    parameters,
    ...optional("list", list),
    ...(body && contentType
      ? {
          requestBody: {
            contentType,
            ...(bodyMedia.length > 1
              ? {
                  mediaTypes: bodyMedia.map(([type, value]) => ({
                    contentType: type,
                    ...optional("example", mediaExample(document, value)),
                  })),
                }
              : {}),
            required: Boolean(body.required),
            ...optional("description", body.description, renderMarkdown),
            ...optional("schema", media?.schema && schemas.node(media.schema)),
          },
        }
      : {}),
    responses: Object.entries(operation.responses ?? {}).map(([status, value]) =>
      buildResponse(document, schemas, renderMarkdown, status, resolve<ResponseObject>(document, value)),
    ),
    example: {
      method: method.toUpperCase(),
      path: path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        encodeURIComponent(parameters.find((p) => p.in === "path" && p.name === name)?.example ?? name),
      ),
      query: parameters.filter((p) => p.in === "query" && p.required).map((p) => [p.name, p.example ?? ""] as [string, string]),
      ...(contentType && media ? { contentType, body: mediaExample(document, media) } : {}),
    },
  };
}

function buildResponse(
  document: OpenApiDocument,
  schemas: SchemaBuilder,
  renderMarkdown: RenderMarkdown,
  status: string,
  response: ResponseObject,
): ResponseView {
  const [contentType, media] = Object.entries(response.content ?? {})[0] ?? [];
  const headers = Object.entries(response.headers ?? {}).map(([name, value]) => {
    const header = resolve<HeaderObject>(document, value);
    return {
      name,
      required: Boolean(header.required),
      ...optional("description", header.description, renderMarkdown),
      schema: header.schema ? schemas.node(header.schema) : PLAIN_STRING,
    };
  });
  return {
    status,
    ...optional("description", response.description, renderMarkdown),
    ...(headers.length > 0 ? { headers } : {}),
    ...(contentType && media
      ? {
          contentType,
          ...optional("schema", media.schema && schemas.node(media.schema)),
          ...optional("example", mediaExample(document, media)),
        }
      : {}),
  };
}

/** Path-level parameters apply unless the operation redefines them (same name and location). */
function mergeParameters(document: OpenApiDocument, item: PathItemObject, operation: OperationObject): ParameterObject[] {
  const own = (operation.parameters ?? []).map((p) => resolve<ParameterObject>(document, p));
  const inherited = (item.parameters ?? [])
    .map((p) => resolve<ParameterObject>(document, p))
    .filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
  return [...inherited, ...own].filter((p) => p.in !== "cookie");
}

/** The example as it is written in the URL: a list comma-separated, as the API's lists (`sort`, `expand`) are. */
function parameterExample(document: OpenApiDocument, parameter: ParameterObject): string | undefined {
  const named = Object.values(parameter.examples ?? {})[0]?.value;
  const value = parameter.example ?? named ?? (parameter.schema ? declaredExample(document, parameter.schema) : undefined);
  if (Array.isArray(value) && value.every((item) => typeof item !== "object")) return value.join(",");
  if (value === undefined || value === null || typeof value === "object") return undefined;
  return String(value);
}

/**
 * A list declares one `filter[FIELD]` / `filter[FIELD__OP]` query parameter per field and operator; they are shown as
 * the list's options (from `x-flusso-list`), not one by one.
 */
function isListFilter(parameter: ParameterObject, list: ListOptions | undefined): boolean {
  return parameter.in === "query" && parameter.name.startsWith("filter[") && Boolean(list?.filters.length);
}

function listOptions(operation: OperationObject): ListOptions | undefined {
  const list = operation["x-flusso-list"];
  if (!list) return undefined;
  return {
    filters: Object.entries(list.filters ?? {}).map(([field, operators]) => ({ field, operators })),
    sorts: list.sorts ?? [],
    expansions: list.expansions ?? [],
    ...optional("defaultSort", list.default_sort),
  };
}

/** `{ key: value }` when value is present, `{}` otherwise: keeps absent fields out of the page data. */
function optional<K extends string, V>(key: K, value: V | undefined | null | "", render?: (text: V) => V): { [k in K]?: V } {
  if (value === undefined || value === null || value === "") return {};
  return { [key]: render ? render(value) : value } as { [k in K]?: V };
}
