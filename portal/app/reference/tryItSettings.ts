import { useCallback, useSyncExternalStore } from "react";
import { useEnvironment } from "~/behaviour/environment";
import { readStorage, writeStorage } from "~/behaviour/storage";

/** sessionStorage key of the pasted API key: gone when the tab closes, never sent to the portal. */
export const API_KEY_STORAGE_KEY = "flusso.try-it.api-key";
/** localStorage key of the company last typed or picked in a try-it panel: every operation's company_id. */
export const COMPANY_STORAGE_KEY = "flusso.try-it.company-id";

export interface TryItSettings {
  apiKey: string;
  companyId: string;
}

/**
 * What every try-it panel and code sample of the reference shares: the key and the company. One store for the
 * page, so a company typed in one operation is the company of all of them, and the samples follow at once.
 */
const listeners = new Set<() => void>();
let settings: TryItSettings | null = null;
const EMPTY: TryItSettings = { apiKey: "", companyId: "" };

function current(): TryItSettings {
  settings ??= {
    apiKey: readStorage(API_KEY_STORAGE_KEY, "sessionStorage") ?? "",
    companyId: readStorage(COMPANY_STORAGE_KEY) ?? "",
  };
  return settings;
}

function update(next: Partial<TryItSettings>) {
  settings = { ...current(), ...next };
  if (next.apiKey !== undefined) writeStorage(API_KEY_STORAGE_KEY, next.apiKey || null, "sessionStorage");
  if (next.companyId !== undefined) writeStorage(COMPANY_STORAGE_KEY, next.companyId || null);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets what was read from storage (tests clear storage between cases). */
export function resetTryItSettings() {
  settings = null;
  for (const listener of listeners) listener();
}

export function useTryItSettings() {
  // The server renders without storage: samples read the key from the environment until hydration.
  const value = useSyncExternalStore(subscribe, current, () => EMPTY);
  const setApiKey = useCallback((apiKey: string) => update({ apiKey }), []);
  const setCompanyId = useCallback((companyId: string) => update({ companyId }), []);
  return { ...value, setApiKey, setCompanyId };
}

/**
 * The company the requests start from: the one typed or picked last, else, on the development host, its demo company
 * when the site knows it; "" when neither (the operation's example id stays, and the panel says to replace it).
 */
export function useStartingCompany(): string {
  const { companyId } = useTryItSettings();
  const { environment, demoCompanyId } = useEnvironment();
  return companyId || (environment === "development" && demoCompanyId) || "";
}
