/** The site URL of a content file; the spec spells the authentication page with a trailing slash. */
export function docUrl(docPath: string): string {
  if (docPath === "index") return "/";
  if (docPath === "authentication") return "/authentication/";
  return `/${docPath}`;
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
