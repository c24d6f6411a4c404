import { startTransition, useEffect, useState } from "react";

/** Widths up to this many pixels get the mobile layout; keep in step with the CSS media queries. */
export const MOBILE_BREAKPOINT = 996;
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT}px)`;

export type WindowSize = "mobile" | "desktop" | "ssr";

/** `ssr` until mounted: the server cannot know the width, and hydration must match it. */
export function useWindowSize(): WindowSize {
  const [size, setSize] = useState<WindowSize>("ssr");
  useEffect(() => {
    const query = window.matchMedia(MOBILE_QUERY);
    // In a transition, like every state read after hydration (see colorMode.tsx).
    const update = () => startTransition(() => setSize(query.matches ? "mobile" : "desktop"));
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return size;
}
