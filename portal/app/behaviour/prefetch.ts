import { startTransition, useEffect, useState } from "react";

type Connection = { effectiveType?: string; saveData?: boolean };

/** Prefetching costs data; skip it where the visitor said so or the network is very slow. */
export function canPrefetch(connection: Connection | undefined): boolean {
  if (!connection) return true;
  return connection.effectiveType !== "slow-2g" && connection.saveData !== true;
}

export type PrefetchMode = "intent" | "viewport" | "none";

/**
 * The `prefetch` prop for a Remix <Link>: `wanted` (hover/focus or visibility) unless the
 * connection says not to. `none` on the server, where nothing is prefetched anyway.
 */
export function usePrefetch(wanted: Exclude<PrefetchMode, "none"> = "intent"): PrefetchMode {
  const [mode, setMode] = useState<PrefetchMode>("none");
  useEffect(() => {
    const connection = (navigator as Navigator & { connection?: Connection & EventTarget }).connection;
    const update = () => startTransition(() => setMode(canPrefetch(connection) ? wanted : "none"));
    update();
    connection?.addEventListener?.("change", update);
    return () => connection?.removeEventListener?.("change", update);
  }, [wanted]);
  return mode;
}
