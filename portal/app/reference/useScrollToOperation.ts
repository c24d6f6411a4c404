import { useEffect } from "react";

/**
 * Deep links (`#operation/<id>`) land below the fixed navbar. CSS `scroll-margin-top` does the
 * offsetting; this keeps `--navbar-height` equal to the navbar's real height (it wraps on narrow
 * screens) and scrolls again once hydrated, since content above the target may have changed height.
 */
export function useScrollToOperation() {
  useEffect(() => {
    const navbar = document.querySelector<HTMLElement>("[data-navbar], .navbar");
    const root = document.documentElement;
    const measure = () => {
      if (navbar) root.style.setProperty("--navbar-height", `${navbar.offsetHeight}px`);
    };
    const scrollToHash = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      if (id) document.getElementById(id)?.scrollIntoView();
    };
    measure();
    scrollToHash();
    const observer = navbar && typeof ResizeObserver !== "undefined" ? new ResizeObserver(measure) : null;
    if (navbar) observer?.observe(navbar);
    window.addEventListener("hashchange", scrollToHash);
    return () => {
      observer?.disconnect();
      window.removeEventListener("hashchange", scrollToHash);
    };
  }, []);
}
