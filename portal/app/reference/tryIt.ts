import type { Environment } from "~/behaviour/environment";
import { ENVIRONMENT_LABELS } from "~/layout/site";
import { exampleAs, type ListOptions, type OperationView, type RequestExample } from "./model";
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

const DATE_FIELD = /(^|_)(date|at)$/;

/**
 * A filter the list accepts, to show in the panel's "other parameters" field: a date bound when the list has a date
 * field, else a text search, else an emptiness test. Never a value the API would refuse.
 */
export function extraQueryExample(list: ListOptions): string | undefined {
  const has = (operator: string) => list.filters.filter((filter) => filter.operators.includes(operator));
  const dated = has("gte").find((filter) => DATE_FIELD.test(filter.field) && !filter.field.endsWith("_date_time"));
  if (dated) return `filter[${dated.field}__gte]=2026-01-01`;
  const text = has("ilike").find((filter) => /name/.test(filter.field)) ?? has("ilike")[0];
  if (text) return `filter[${text.field}__ilike]=bianchi`;
  const empty = has("empty")[0];
  return empty ? `filter[${empty.field}__empty]=false` : undefined;
}

/** How the API tells the environments' keys apart: a key works in its own environment only (401 elsewhere). */
export const KEY_PREFIXES: Record<Environment, string> = { development: "fls_dev_", production: "fls_prod_" };

/**
 * What the panel says about the key for the selected environment: production calls need a production key and act
 * on real data; a key of the other environment is named before it is sent, as the API would only answer 401.
 */
export function keyNotice(environment: Environment, apiKey: string): { text: string; mismatch: boolean } | null {
  const other: Environment = environment === "production" ? "development" : "production";
  if (apiKey.startsWith(KEY_PREFIXES[other]))
    return {
      mismatch: true,
      text: `Questa è una chiave dell'ambiente ${ENVIRONMENT_LABELS[other]} (${KEY_PREFIXES[other]}…): l'ambiente ${ENVIRONMENT_LABELS[environment]} la rifiuta con 401. Usa una chiave ${KEY_PREFIXES[environment]}… o cambia ambiente in alto.`,
    };
  if (environment === "production")
    return {
      mismatch: false,
      text: `Ambiente Produzione: serve una chiave di produzione (${KEY_PREFIXES.production}…) e la richiesta agisce sui dati reali dell'azienda.`,
    };
  return null;
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
  fetcher: typeof fetch = fetch,
): Promise<TryItResult> {
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  const hasBody = Boolean(operation.requestBody) && input.body.trim() !== "";
  if (hasBody) headers["Content-Type"] = input.contentType ?? operation.requestBody?.contentType ?? "application/json";
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

/** Why a request the browser would not complete failed; fetch itself only says "TypeError: Failed to fetch". */
export type FailureKind = "mixed-content" | "offline" | "cors" | "network";

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/**
 * Tells the causes apart after the fact: a plain page over HTTPS cannot call an HTTP host (mixed content); an
 * offline browser reaches nothing; otherwise a `no-cors` probe, which needs no CORS permission, shows whether the
 * host answers at all: if it does, the browser refused the real request on CORS grounds.
 */
export async function diagnoseFailure(url: string, pageUrl: string, online: boolean, fetcher: typeof fetch = fetch): Promise<FailureKind> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return "network";
  }
  if (new URL(pageUrl).protocol === "https:" && target.protocol === "http:" && !LOOPBACK.test(target.hostname)) return "mixed-content";
  if (!online) return "offline";
  try {
    await fetcher(url, { method: "GET", mode: "no-cors", cache: "no-store", credentials: "omit" });
    return "cors";
  } catch {
    return "network";
  }
}

export function failureMessage(kind: FailureKind, url: string, method: string, pageOrigin: string): string {
  let host = url;
  try {
    host = new URL(url).origin;
  } catch {
    // Not a URL at all: show it as typed.
  }
  switch (kind) {
    case "mixed-content":
      return `Il browser ha bloccato la richiesta: questa pagina è in HTTPS e ${host} è in HTTP (contenuto misto). Usa un host HTTPS oppure apri il portale in HTTP.`;
    case "offline":
      return "Il browser è offline: controlla la connessione e riprova.";
    case "cors":
      return `${host} ha risposto, ma il browser ha bloccato la risposta per le regole CORS: l'API non consente richieste ${method} da questa origine (${pageOrigin}). Gli esempi di codice non passano dal browser e non hanno questo limite.`;
    case "network":
      return `Impossibile raggiungere ${host}: l'host non risponde, il nome non si risolve o il suo certificato HTTPS non è valido. Controlla l'ambiente scelto in alto e che l'API sia in esecuzione.`;
  }
}
