import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { onStorageChange, readStorage, writeStorage } from "./storage";

export const CODE_LANGUAGE_STORAGE_KEY = "flusso.code-language";

type CodeLanguageValue = {
  /** Language last picked in any sample group, so every group on every page follows it. */
  language: string | null;
  setLanguage: (language: string) => void;
};

const CodeLanguageContext = createContext<CodeLanguageValue>({ language: null, setLanguage: () => {} });

export function CodeLanguageProvider({ children }: { children: ReactNode }) {
  const [language, setState] = useState<string | null>(null);

  useEffect(() => {
    // In a transition, like every state read from storage after hydration (see colorMode.tsx).
    startTransition(() => setState(readStorage(CODE_LANGUAGE_STORAGE_KEY)));
    return onStorageChange(CODE_LANGUAGE_STORAGE_KEY, setState);
  }, []);

  const setLanguage = useCallback((next: string) => {
    writeStorage(CODE_LANGUAGE_STORAGE_KEY, next);
    setState(next);
  }, []);

  const value = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  return <CodeLanguageContext.Provider value={value}>{children}</CodeLanguageContext.Provider>;
}

export function useCodeLanguage(): CodeLanguageValue {
  return useContext(CodeLanguageContext);
}
