import type { EntryContext } from "@remix-run/node";
import { gzipSync } from "node:zlib";
import type { PageHandle } from "~/layout/site";

/**
 * Pages that are the same for every visitor (a route whose handle says `renderOnce`: the API reference) are rendered
 * on their first request and then served from memory, gzipped once, until the server restarts with a new build,
 * which is when their content (the OpenAPI document, the site's settings) can change.
 */
type RenderedPage = { headers: [string, string][]; identity: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> };

const pages = new Map<string, RenderedPage>();
// A path the router matches spelled another way (letter case, trailing slash) is another key: only so many are kept.
const MAX_PAGES = 8;

/** The key of a page to render once, or null when this request renders as usual. */
export function renderOnceKey(request: Request, status: number, context: EntryContext): string | null {
  if (request.method !== "GET" || status !== 200) return null;
  const url = new URL(request.url);
  if (url.search !== "") return null;
  const leaf = context.staticHandlerContext.matches.at(-1);
  const handle = leaf ? (context.routeModules[leaf.route.id]?.handle as PageHandle | undefined) : undefined;
  return handle?.renderOnce ? url.pathname : null;
}

function acceptsGzip(request: Request): boolean {
  return (request.headers.get("Accept-Encoding") ?? "").split(",").some((part) => {
    const [coding, ...parameters] = part.trim().split(";");
    return coding.trim().toLowerCase() === "gzip" && !parameters.some((parameter) => /^\s*q=0(\.0*)?\s*$/.test(parameter));
  });
}

function respond(page: RenderedPage, request: Request): Response {
  const headers = new Headers(page.headers);
  headers.set("Vary", "Accept-Encoding");
  if (!acceptsGzip(request)) return new Response(page.identity, { status: 200, headers });
  // Already encoded: remix-serve's compression leaves it as it is.
  headers.set("Content-Encoding", "gzip");
  return new Response(page.gzip, { status: 200, headers });
}

export function renderedOnce(key: string, request: Request): Response | null {
  const page = pages.get(key);
  return page ? respond(page, request) : null;
}

/** Keeps a page rendered in full (status 200, no error) and answers with it. */
export function keepRendered(key: string, html: Buffer, headers: Headers, request: Request): Response {
  const page: RenderedPage = { headers: [...headers], identity: new Uint8Array(html), gzip: new Uint8Array(gzipSync(html)) };
  if (pages.size < MAX_PAGES) pages.set(key, page);
  return respond(page, request);
}
