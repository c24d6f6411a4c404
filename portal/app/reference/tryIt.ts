import type { OperationView } from "./model";

/** sessionStorage key of the pasted API key: gone when the tab closes, never sent to the portal. */
export const API_KEY_STORAGE_KEY = "flusso.try-it.api-key";

export interface TryItInput {
  pathParams: Record<string, string>;
  query: Record<string, string>;
  /** Extra query text such as `filter[status]=PAID&sort=-date`, appended as typed. */
  extraQuery: string;
  body: string;
}

export interface TryItResult {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: string;
  durationMs: number;
}

/** The form's starting values: the operation's example request. */
export function initialInput(operation: OperationView): TryItInput {
  const segments = operation.example.path.split("/");
  const pathParams = Object.fromEntries(
    operation.path.split("/").flatMap((segment, index) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      return name ? [[name, decodeURIComponent(segments[index] ?? "")]] : [];
    })
  );
  const query = Object.fromEntries(
    operation.parameters
      .filter((p) => p.in === "query" && p.schema.kind === "scalar")
      .map((p) => [p.name, p.required ? p.example ?? "" : ""])
  );
  const body = operation.example.body === undefined ? "" : JSON.stringify(operation.example.body, null, 2);
  return { pathParams, query, extraQuery: "", body };
}

export function requestUrl(host: string, operation: OperationView, input: TryItInput): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(input.pathParams[name] ?? ""));
  const params = new URLSearchParams(Object.entries(input.query).filter(([, value]) => value !== ""));
  const query = [params.toString(), input.extraQuery.replace(/^[?&]+/, "")].filter(Boolean).join("&");
  return `${host.replace(/\/+$/, "")}${path}${query ? `?${query}` : ""}`;
}

/** Sends the request from the browser, straight to the API (which answers CORS for any origin). */
export async function sendRequest(
  url: string,
  operation: OperationView,
  input: TryItInput,
  apiKey: string,
  fetcher: typeof fetch = fetch
): Promise<TryItResult> {
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  const hasBody = Boolean(operation.requestBody) && input.body.trim() !== "";
  if (hasBody) headers["Content-Type"] = operation.requestBody?.contentType ?? "application/json";
  const started = performance.now();
  const response = await fetcher(url, { method: operation.method, headers, body: hasBody ? input.body : undefined });
  const text = await response.text();
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers.entries()],
    body: prettyJson(text),
    durationMs: Math.round(performance.now() - started),
  };
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
