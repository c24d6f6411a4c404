import { useEffect, useRef, useState } from "react";
import { LOADER_DELAY_MS } from "./pastDelay";

export type ProgressState = { visible: boolean; progress: number };

const IDLE: ProgressState = { visible: false, progress: 0 };
const TRICKLE_MS = 400;
const DONE_FADE_MS = 300;

/**
 * A progress bar for a route change: it appears only when `loading` lasts longer than
 * the delay, creeps towards (never reaching) the end while loading, then fills and fades.
 */
export function useProgressBar(loading: boolean, delay = LOADER_DELAY_MS): ProgressState {
  const [state, setState] = useState<ProgressState>(IDLE);
  const shownRef = useRef(false);

  useEffect(() => {
    if (loading) {
      let trickle: ReturnType<typeof setInterval> | undefined;
      const start = setTimeout(() => {
        shownRef.current = true;
        setState({ visible: true, progress: 0.08 });
        trickle = setInterval(() => setState((s) => ({ visible: true, progress: s.progress + (0.95 - s.progress) * 0.15 })), TRICKLE_MS);
      }, delay);
      return () => {
        clearTimeout(start);
        clearInterval(trickle);
      };
    }
    if (!shownRef.current) return;
    shownRef.current = false;
    setState({ visible: true, progress: 1 });
    const hide = setTimeout(() => setState(IDLE), DONE_FADE_MS);
    return () => clearTimeout(hide);
  }, [loading, delay]);

  return state;
}
