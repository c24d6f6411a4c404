import type { RequestExample } from "../model";

/** The placeholder every sample shows where the integrator's key goes. */
export const API_KEY_PLACEHOLDER = "YOUR_API_KEY";

/** A concrete HTTP request, the one thing every language generator translates. */
export interface SampleRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  /** The body, already serialised (pretty JSON for JSON bodies). */
  body?: string;
  /** The body as a value, for languages that write it as a literal. */
  json?: unknown;
}

export function sampleRequest(example: RequestExample, host: string, apiKey = API_KEY_PLACEHOLDER): SampleRequest {
  const query = example.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&");
  const url = `${host.replace(/\/+$/, "")}${example.path}${query ? `?${query}` : ""}`;
  const headers: Array<[string, string]> = [["Authorization", `Bearer ${apiKey}`]];
  if (example.body === undefined) return { method: example.method, url, headers };

  const isJson = example.contentType?.includes("json") ?? true;
  const body = isJson ? JSON.stringify(example.body, null, 2) : String(example.body);
  headers.push(["Content-Type", example.contentType ?? "application/json"]);
  return { method: example.method, url, headers, body, ...(isJson ? { json: example.body } : {}) };
}
