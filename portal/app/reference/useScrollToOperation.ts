import { useEffect } from "react";

/**
 * Deep links (`#operation/<id>`) land below the fixed navbar: the site's `scroll-padding-top`
 * (= --navbar-height) offsets every anchor jump. The browser's own jump happens before the
 * page hydrates, so jump again once hydrated and on later hash changes within the page.
 */
export function useScrollToOperation() {
  useEffect(() => {
    const scrollToHash = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      if (id) document.getElementById(id)?.scrollIntoView();
    };
    scrollToHash();
    window.addEventListener("hashchange", scrollToHash);
    return () => window.removeEventListener("hashchange", scrollToHash);
  }, []);
}
