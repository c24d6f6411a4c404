import type { RequestExample } from "../model";

/** The environment variable the samples read the key from when none was typed in the try-it panel (as the guides do). */
export const API_KEY_VARIABLE = "FLUSSO_API_KEY";
/** What the raw HTTP sample shows when no key was typed: an .http file cannot read the environment portably. */
export const API_KEY_PLACEHOLDER = "YOUR_API_KEY";

/** A concrete HTTP request, the one thing every language generator translates. */
export interface SampleRequest {
  method: string;
  url: string;
  /** The key typed in the try-it panel; without one the samples read `FLUSSO_API_KEY` from the environment. */
  apiKey?: string;
  /** Headers other than Authorization, which each language writes its own way (see apiKey). */
  headers: Array<[string, string]>;
  /** The body, already serialised (pretty JSON for JSON bodies). */
  body?: string;
  /** The body as a value, for languages that write it as a literal. */
  json?: unknown;
}

/** JSON bodies are written as literals and pretty-printed; any other type (XML) is sent as the text it is. */
export const isJsonMediaType = (contentType: string | undefined): boolean => contentType?.includes("json") ?? true;

export function sampleRequest(example: RequestExample, host: string, apiKey?: string): SampleRequest {
  const query = example.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&");
  const url = `${host.replace(/\/+$/, "")}${example.path}${query ? `?${query}` : ""}`;
  const key = apiKey ? { apiKey } : {};
  if (example.body === undefined) return { method: example.method, url, ...key, headers: [] };

  const isJson = isJsonMediaType(example.contentType);
  const body = isJson ? JSON.stringify(example.body, null, 2) : String(example.body);
  const headers: Array<[string, string]> = [["Content-Type", example.contentType ?? "application/json"]];
  return { method: example.method, url, ...key, headers, body, ...(isJson ? { json: example.body } : {}) };
}
