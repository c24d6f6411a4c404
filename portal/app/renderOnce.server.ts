import type { EntryContext } from "@remix-run/node";
import { createHash } from "node:crypto";
import { brotliCompress, constants, gzipSync } from "node:zlib";
import type { PageHandle } from "~/layout/site";

/**
 * Pages that are the same for every visitor (a route whose handle says `renderOnce`: the API reference and the docs
 * pages) are rendered on their first request and then served from memory, compressed once, until the server restarts
 * with a new build, which is when their content (the Markdown, the OpenAPI document, the site's settings) can change.
 * Gzip is made with the page; Brotli, much smaller for these pages (its window spans the schema trees an operation
 * repeats: 77 KB against gzip's 261 KB for the reference) but seconds of work at its best quality, is made afterwards
 * on libuv's thread pool, and served from then on.
 */
type RenderedPage = {
  headers: [string, string][];
  etag: string;
  identity: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  br?: Uint8Array<ArrayBuffer>;
};

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

/** The key of a page to render once, or null when this request renders as usual. */
export function renderOnceKey(request: Request, status: number, context: EntryContext): RenderOnceKey | null {
  const path = status === 200 ? keptPath(request) : null;
  if (path === null) return null;
  const leaf = context.staticHandlerContext.matches.at(-1);
  const handle = leaf ? (context.routeModules[leaf.route.id]?.handle as PageHandle | undefined) : undefined;
  return leaf && handle?.renderOnce ? { routeId: leaf.route.id, path } : null;
}

/** Whether the request's Accept-Encoding names this coding without refusing it (q=0). */
function accepts(request: Request, coding: string): boolean {
  return (request.headers.get("Accept-Encoding") ?? "").split(",").some((part) => {
    const [name, ...parameters] = part.trim().split(";");
    return name.trim().toLowerCase() === coding && !parameters.some((parameter) => /^\s*q=0(\.0*)?\s*$/.test(parameter));
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
  // Already encoded: remix-serve's compression leaves it as it is.
  if (page.br && accepts(request, "br")) {
    headers.set("Content-Encoding", "br");
    return new Response(page.br, { status: 200, headers });
  }
  if (accepts(request, "gzip")) {
    headers.set("Content-Encoding", "gzip");
    return new Response(page.gzip, { status: 200, headers });
  }
  return new Response(page.identity, { status: 200, headers });
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
    gzip: new Uint8Array(gzipSync(html, { level: constants.Z_BEST_COMPRESSION })),
  };
  const kept = spellings.get(key.routeId) ?? 0;
  if (!pages.has(key.path) && kept < SPELLINGS_PER_ROUTE) {
    pages.set(key.path, page);
    spellings.set(key.routeId, kept + 1);
    const params = {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      // 16 MB, the largest window every Brotli decoder accepts (RFC 7932).
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
    };
    brotliCompress(html, { params }, (error, br) => {
      if (error) console.error(`Brotli compression of ${key.path} failed; it is served gzipped`, error);
      else page.br = new Uint8Array(br);
    });
  }
  return respond(page, request);
}
