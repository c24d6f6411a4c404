import { useEffect, useState } from "react";

/** Loaders and the progress bar wait this long, so fast loads show nothing at all. */
export const LOADER_DELAY_MS = 200;

/** True once `active` has stayed true for `delay` ms; false again as soon as it is not. */
export function usePastDelay(active: boolean, delay = LOADER_DELAY_MS): boolean {
  const [past, setPast] = useState(false);
  // Reset while rendering: the next time `active` turns true, the delay starts over.
  if (!active && past) setPast(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setPast(true), delay);
    return () => clearTimeout(timer);
  }, [active, delay]);
  return active && past;
}
