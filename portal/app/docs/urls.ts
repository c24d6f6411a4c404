import { DOC_PAGES } from "../content/pages";

/** The site URL of a content file; the spec spells the authentication page with a trailing slash. */
export function docUrl(docPath: string): string {
  if (docPath === "index") return "/";
  if (docPath === "authentication") return "/authentication/";
  return `/${docPath}`;
}

/**
 * The docs page a URL names, matched as the router matches routes (letter case and a trailing slash do not matter,
 * escapes are decoded): `/` → `index`, `/Basics/errors/` → `basics/errors`.
 */
export function docPathOf(pathname: string): string | undefined {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape matches no page.
  }
  const key = (path: string) => (path.length > 1 ? path.replace(/\/+$/, "") : path).toLowerCase();
  return DOC_PAGES.find((page) => key(docUrl(page)) === key(decoded));
}

/** `/basics/errors` → `/basics/errors.md`; the home page is `/index.md`. */
export function markdownUrl(docPath: string): string {
  return `/${docPath}.md`;
}

/** Compares URLs the way the router matches them: a trailing slash does not matter. */
export function samePath(a: string, b: string): boolean {
  const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, "") : path);
  return trim(a) === trim(b);
}

/** `/x/index`, `/x.html` and `/x/index.html` name the page `/x` (or `/x/`): strip the suffix. */
export function withoutIndexSuffix(pathname: string): string {
  return pathname.replace(/(^|\/)index(\.html)?$/, "$1").replace(/\.html$/, "") || "/";
}
