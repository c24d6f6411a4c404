import { API_KEY_PLACEHOLDER, type SampleRequest } from "./request";

/** UTF-8 byte length: every escaped byte of encodeURIComponent counts as one. */
const byteLength = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, "_").length;

export function httpSample(request: SampleRequest): string {
  const url = new URL(request.url);
  const authorization = `Authorization: Bearer ${request.apiKey ?? API_KEY_PLACEHOLDER}`;
  const headers = [`Host: ${url.host}`, authorization, ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  if (request.body !== undefined) headers.push(`Content-Length: ${byteLength(request.body)}`);
  const head = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, ...headers].join("\n");
  return request.body === undefined ? head : `${head}\n\n${request.body}`;
}
