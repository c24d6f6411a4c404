import { startTransition, useCallback, useEffect, useState } from "react";
import { readStorage, writeStorage } from "./storage";

/** Same key shape as Docusaurus, so a visitor's choice survives a move between the two. */
export function docsPreferredVersionStorageKey(pluginId: string) {
  return `docs-preferred-version-${pluginId}`;
}

/** The docs version a visitor last read, kept per docs plugin. */
export function useDocsPreferredVersion(pluginId: string) {
  const key = docsPreferredVersionStorageKey(pluginId);
  const [preferredVersion, setPreferred] = useState<string | null>(null);

  // In a transition, like every state read from storage after hydration (see colorMode.tsx).
  useEffect(() => startTransition(() => setPreferred(readStorage(key))), [key]);

  const savePreferredVersion = useCallback(
    (version: string) => {
      writeStorage(key, version);
      startTransition(() => setPreferred(version));
    },
    [key],
  );

  return { preferredVersion, savePreferredVersion };
}
