import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Deep links (`#operation/<id>`) land below the fixed navbar: the site's `scroll-padding-top`
 * (= --navbar-height) offsets every anchor jump. The browser's own jump happens before the page
 * hydrates, and a hash changed within the page (sidebar link, address bar, history) reaches the
 * router as a POP, whose scroll restoration puts back a position saved for another entry: jump
 * again after each location change, since effects run after the router's restoration, and once
 * more on the next frame, after a restoration the browser itself makes on a history traversal.
 */
export function useScrollToOperation() {
  const { hash, key } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) return;
    const jump = () => document.getElementById(id)?.scrollIntoView();
    jump();
    const frame = requestAnimationFrame(jump);
    return () => cancelAnimationFrame(frame);
  }, [hash, key]);
}
