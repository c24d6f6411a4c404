import type { Environment } from "~/behaviour/environment";
import { ENVIRONMENT_LABELS } from "~/layout/site";
import type { ListOptions, OperationView } from "./model";
import type { TryItInput } from "./tryIt";

// What the try-it panel does once it is opened: it loads with the panel (TryItForm), not with the page.

export interface TryItResult {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: string;
  durationMs: number;
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
