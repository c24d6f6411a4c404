import { exampleAs, type OperationView, type RequestExample } from "./model";
import { isJsonMediaType } from "./samples/request";

/** The path parameter every company-scoped operation has, remembered across operations (see tryItSettings.ts). */
export const COMPANY_PARAMETER = "company_id";

export interface TryItInput {
  pathParams: Record<string, string>;
  query: Record<string, string>;
  /** Extra query text such as `filter[status]=PAID&sort=-date`, appended as typed. */
  extraQuery: string;
  /** The media type the body is sent as: one the operation takes (absent when it takes no body). */
  contentType?: string;
  body: string;
}

/** The form's starting values: the operation's example request. */
export function initialInput(operation: OperationView): TryItInput {
  const segments = operation.example.path.split("/");
  const pathParams = Object.fromEntries(
    operation.path.split("/").flatMap((segment, index) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      return name ? [[name, decodeURIComponent(segments[index] ?? "")]] : [];
    }),
  );
  const query = Object.fromEntries(
    operation.parameters
      .filter((p) => p.in === "query" && (p.schema.kind === "scalar" || (p.schema.kind === "array" && p.schema.items.kind === "scalar")))
      .map((p) => [p.name, p.required ? (p.example ?? "") : ""]),
  );
  const { contentType, body } = operation.example;
  return { pathParams, query, extraQuery: "", ...(contentType ? { contentType } : {}), body: bodyText(contentType, body) };
}

/** A body or example as the reference shows it: JSON pretty-printed, anything else (XML) as it is. */
export function bodyText(contentType: string | undefined, body: unknown): string {
  if (body === undefined) return "";
  return isJsonMediaType(contentType) || typeof body !== "string" ? JSON.stringify(body, null, 2) : body;
}

/** The input switched to another of the operation's media types, its body replaced by that type's example. */
export function withMediaType(operation: OperationView, input: TryItInput, contentType: string): TryItInput {
  return { ...input, contentType, body: bodyText(contentType, exampleAs(operation, contentType).body) };
}

/** The input with the remembered company in place of the example's, when the operation takes one. */
export function withCompany(input: TryItInput, companyId: string): TryItInput {
  if (!companyId || !(COMPANY_PARAMETER in input.pathParams)) return input;
  return { ...input, pathParams: { ...input.pathParams, [COMPANY_PARAMETER]: companyId } };
}

/** The request the panel would send, as the code samples show it: so the samples run as copied. */
export function requestExample(operation: OperationView, input: TryItInput): RequestExample {
  const path = operation.path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    input.pathParams[name] ? encodeURIComponent(input.pathParams[name]) : whole,
  );
  const query: Array<[string, string]> = Object.entries(input.query).filter(([, value]) => value !== "");
  query.push(...new URLSearchParams(input.extraQuery.replace(/^[?&]+/, "")).entries());
  const example: RequestExample = { method: operation.method, path, query };
  if (!operation.requestBody) return example;
  const contentType = input.contentType ?? operation.requestBody.contentType;
  let body: unknown = exampleAs(operation, contentType).body;
  if (!isJsonMediaType(contentType)) {
    body = input.body.trim() === "" ? undefined : input.body;
  } else {
    try {
      body = input.body.trim() === "" ? undefined : JSON.parse(input.body);
    } catch {
      // Half-typed JSON: the samples keep the last body that parsed, the example's.
    }
  }
  return { ...example, contentType, ...(body === undefined ? {} : { body }) };
}
