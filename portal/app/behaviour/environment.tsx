import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { onStorageChange, readStorage, writeStorage } from "./storage";

export type Environment = "development" | "production";
export type EnvironmentHosts = Record<Environment, string>;

export const ENVIRONMENT_STORAGE_KEY = "flusso.environment";
export const DEFAULT_ENVIRONMENT: Environment = "development";
export const ENVIRONMENTS: readonly Environment[] = ["development", "production"];

export function parseEnvironment(value: string | null | undefined): Environment {
  return value === "production" ? "production" : DEFAULT_ENVIRONMENT;
}

/**
 * Sets `data-environment` on <html> before the first paint: host names rendered with
 * <EnvironmentHost> show the stored environment at once, without waiting for hydration.
 */
export const environmentScript = `(function(){try{var e=localStorage.getItem(${JSON.stringify(ENVIRONMENT_STORAGE_KEY)});
document.documentElement.dataset.environment=e==="production"?"production":${JSON.stringify(DEFAULT_ENVIRONMENT)}}catch(x){}})();`;

type EnvironmentValue = {
  environment: Environment;
  /** Base host of the selected environment, without a trailing slash and without /api/v1. */
  host: string;
  hosts: EnvironmentHosts;
  /** The development host's demo company, when the site knows it (see SiteConfig). */
  demoCompanyId: string | null;
  setEnvironment: (environment: Environment) => void;
};

const EnvironmentContext = createContext<EnvironmentValue | null>(null);

export function EnvironmentProvider({
  hosts,
  demoCompanyId = null,
  children,
}: {
  hosts: EnvironmentHosts;
  demoCompanyId?: string | null;
  children: ReactNode;
}) {
  const [environment, setState] = useState<Environment>(DEFAULT_ENVIRONMENT);
  const [synced, setSynced] = useState(false);

  useEffect(() => {
    // In a transition, like every state read from storage after hydration (see colorMode.tsx).
    startTransition(() => {
      setState(parseEnvironment(readStorage(ENVIRONMENT_STORAGE_KEY)));
      setSynced(true);
    });
    return onStorageChange(ENVIRONMENT_STORAGE_KEY, (value) => setState(parseEnvironment(value)));
  }, []);

  useEffect(() => {
    if (synced) document.documentElement.dataset.environment = environment;
  }, [synced, environment]);

  const setEnvironment = useCallback((next: Environment) => {
    writeStorage(ENVIRONMENT_STORAGE_KEY, next);
    setState(next);
  }, []);

  const value = useMemo(
    () => ({ environment, host: hosts[environment], hosts, demoCompanyId, setEnvironment }),
    [environment, hosts, demoCompanyId, setEnvironment],
  );
  return <EnvironmentContext.Provider value={value}>{children}</EnvironmentContext.Provider>;
}

export function useEnvironment(): EnvironmentValue {
  const value = useContext(EnvironmentContext);
  if (!value) throw new Error("useEnvironment must be used inside <EnvironmentProvider>");
  return value;
}
