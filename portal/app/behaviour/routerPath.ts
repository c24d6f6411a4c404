import type { MouseEvent } from "react";

/** A link inside server-rendered HTML (Markdown, the footer) that the router can handle (a page, not a file). */
export function routerPath(anchor: HTMLAnchorElement): string | null {
  const href = anchor.getAttribute("href");
  if (!href || !href.startsWith("/") || href.startsWith("//")) return null;
  if (anchor.target || anchor.hasAttribute("download")) return null;
  const path = href.split(/[?#]/)[0];
  return /\.[a-z0-9]+$/i.test(path) ? null : href;
}

/** The page a plain click on such a link goes to, for the router to show; null where the browser should act as usual. */
export function clickedRouterPath(event: MouseEvent<HTMLElement>): string | null {
  const anchor = (event.target as HTMLElement).closest("a");
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return null;
  return routerPath(anchor);
}
