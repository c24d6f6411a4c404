import { useEffect, useState } from "react";

/** Loaders and the progress bar wait this long, so fast loads show nothing at all. */
export const LOADER_DELAY_MS = 200;

/** True once `active` has stayed true for `delay` ms; false again as soon as it is not. */
export function usePastDelay(active: boolean, delay = LOADER_DELAY_MS): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    if (!active) {
      setPast(false);
      return;
    }
    const timer = setTimeout(() => setPast(true), delay);
    return () => clearTimeout(timer);
  }, [active, delay]);
  return past;
}
