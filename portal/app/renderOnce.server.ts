import type { EntryContext } from "@remix-run/node";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { PageHandle } from "~/layout/site";

/**
 * Pages that are the same for every visitor (a route whose handle says `renderOnce`: the API reference and the docs
 * pages) are rendered on their first request and then served from memory, gzipped once, until the server restarts
 * with a new build, which is when their content (the Markdown, the OpenAPI document, the site's settings) can change.
 */
type RenderedPage = { headers: [string, string][]; etag: string; identity: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> };

export type RenderOnceKey = { routeId: string; path: string };

const pages = new Map<string, RenderedPage>();
// The router also matches a path spelled another way (letter case, trailing slash), and each spelling is a page of
// its own: a route keeps so many, the others render as usual.
const SPELLINGS_PER_ROUTE = 2;
const spellings = new Map<string, number>();

/** The path of a request that may be answered with a page rendered once, or null. */
function keptPath(request: Request): string | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  return url.search === "" ? url.pathname : null;
}

/**
 * Whether this request will be answered with a page kept in memory: its loaders' data is then not rendered, and a
 * loader whose data is large (the reference's model) can skip it, since Remix encodes every loader's data for the
 * browser before the entry decides what to answer.
 */
export function isKept(request: Request): boolean {
  const path = keptPath(request);
  return path !== null && pages.has(path);
}

/** The key of a page to render once, or null when this request renders as usual. */
export function renderOnceKey(request: Request, status: number, context: EntryContext): RenderOnceKey | null {
  const path = status === 200 ? keptPath(request) : null;
  if (path === null) return null;
  const leaf = context.staticHandlerContext.matches.at(-1);
  const handle = leaf ? (context.routeModules[leaf.route.id]?.handle as PageHandle | undefined) : undefined;
  return leaf && handle?.renderOnce ? { routeId: leaf.route.id, path } : null;
}

function acceptsGzip(request: Request): boolean {
  return (request.headers.get("Accept-Encoding") ?? "").split(",").some((part) => {
    const [coding, ...parameters] = part.trim().split(";");
    return coding.trim().toLowerCase() === "gzip" && !parameters.some((parameter) => /^\s*q=0(\.0*)?\s*$/.test(parameter));
  });
}

/** Whether the browser's copy (If-None-Match) is this page: a weak comparison, as for GET (RFC 9110, 13.1.2). */
function isCurrent(page: RenderedPage, request: Request): boolean {
  const tags = request.headers.get("If-None-Match");
  if (!tags) return false;
  return tags.trim() === "*" || tags.split(",").some((tag) => tag.trim().replace(/^W\//, "") === page.etag.replace(/^W\//, ""));
}

function respond(page: RenderedPage, request: Request): Response {
  const headers = new Headers(page.headers);
  headers.set("Vary", "Accept-Encoding");
  // The same page until the server restarts with a new build: browsers keep it and ask whether it is still current.
  headers.set("ETag", page.etag);
  headers.set("Cache-Control", "no-cache");
  if (isCurrent(page, request)) return new Response(null, { status: 304, headers });
  if (!acceptsGzip(request)) return new Response(page.identity, { status: 200, headers });
  // Already encoded: remix-serve's compression leaves it as it is.
  headers.set("Content-Encoding", "gzip");
  return new Response(page.gzip, { status: 200, headers });
}

export function renderedOnce(key: RenderOnceKey, request: Request): Response | null {
  const page = pages.get(key.path);
  return page ? respond(page, request) : null;
}

/** Keeps a page rendered in full (status 200, no error) and answers with it. */
export function keepRendered(key: RenderOnceKey, html: Buffer, headers: Headers, request: Request): Response {
  const page: RenderedPage = {
    headers: [...headers],
    // Weak: the gzipped and the plain answer are the same page, not the same bytes.
    etag: `W/"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`,
    identity: new Uint8Array(html),
    gzip: new Uint8Array(gzipSync(html)),
  };
  const kept = spellings.get(key.routeId) ?? 0;
  if (!pages.has(key.path) && kept < SPELLINGS_PER_ROUTE) {
    pages.set(key.path, page);
    spellings.set(key.routeId, kept + 1);
  }
  return respond(page, request);
}
