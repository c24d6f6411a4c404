import { useEffect, useSyncExternalStore } from "react";
import { curlSample } from "./curl";
import type { SampleRequest } from "./request";
import { isSampleId, type SampleId } from "./tabs";

export type Generators = Partial<Record<SampleId, (request: SampleRequest) => string>>;

/**
 * The generators the reference's browser code has: cURL, the first tab, comes with the page; the others load (one small
 * chunk) the first time a sample group shows one of them, so the page's JavaScript does not carry five languages most
 * visitors never pick. The server renders the first tab, so it never needs them.
 */
const FIRST: Generators = { curl: curlSample };
let generators = FIRST;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function loadSampleGenerators(): Promise<void> {
  loading ??= import("./later").then(
    ({ LATER_GENERATORS }) => {
      generators = { ...FIRST, ...LATER_GENERATORS };
      for (const listener of listeners) listener();
    },
    (error: unknown) => {
      // A failed load (offline, a new deployment): the next choice of a language tries again.
      loading = undefined;
      console.error("Esempi non caricati", error);
    },
  );
  return loading;
}

/** The generators at hand, loading the others when `language` (the group's chosen one) is not among them. */
export function useSampleGenerators(language: string | null): Generators {
  const current = useSyncExternalStore(
    subscribe,
    () => generators,
    () => FIRST,
  );
  const missing = language !== null && isSampleId(language) && current[language] === undefined;
  useEffect(() => {
    if (missing) void loadSampleGenerators();
  }, [missing, language]);
  return current;
}
