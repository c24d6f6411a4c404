import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

/** After a location change, the last moments something else may still move the page (a restoration, a late layout). */
const SETTLE_MS = [100, 300, 600];
/** What the reader does that means the page is theirs again: no jump after it. */
const READER_INPUT = ["wheel", "touchstart", "keydown", "mousedown"] as const;

/**
 * Deep links (`#operation/<id>`) land below the fixed navbar: the site's `scroll-padding-top`
 * (= --navbar-height) offsets every anchor jump. The browser's own jump happens before the page
 * hydrates, and a hash changed within the page (sidebar link, address bar, history) reaches the
 * router as a POP, whose scroll restoration puts back a position saved for another entry: jump
 * again after each location change, since effects run after the router's restoration, on the next
 * frame, after a restoration the browser itself makes on a history traversal, and a few times more
 * while the page settles (a traversal's restoration was seen to land later than one frame), unless
 * the reader has moved the page meanwhile.
 */
export function useScrollToOperation() {
  const { hash, key } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) return;
    const jump = () => document.getElementById(id)?.scrollIntoView();
    jump();
    const frame = requestAnimationFrame(jump);
    const timers = SETTLE_MS.map((ms) => setTimeout(jump, ms));
    const stop = () => {
      cancelAnimationFrame(frame);
      timers.forEach(clearTimeout);
      for (const type of READER_INPUT) window.removeEventListener(type, stop);
    };
    for (const type of READER_INPUT) window.addEventListener(type, stop, { passive: true });
    return stop;
  }, [hash, key]);
}
