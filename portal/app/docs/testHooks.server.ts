import { portalEnv } from "~/config/env.server";

/**
 * Deterministic failures for the browser tests, reachable only when the server was
 * started with FLUSSO_TEST_HOOKS=1 (never in a normal deployment):
 * `?__test=slow` delays the page body, `fail` rejects it, `fail-once:<token>` rejects it
 * the first time only (to exercise Retry), `crash` makes the page throw once it is hydrated.
 */
export type TestHook = { kind: "slow" | "fail" | "fail-once" | "crash"; token?: string };

const failedTokens = new Set<string>();

export function readTestHook(request: Request): TestHook | null {
  if (!portalEnv.testHooks) return null;
  const value = new URL(request.url).searchParams.get("__test");
  if (!value) return null;
  const [kind, token] = value.split(":");
  if (kind === "slow" || kind === "fail" || kind === "crash") return { kind };
  if (kind === "fail-once" && token) return { kind, token };
  return null;
}

export const TEST_SLOW_MS = 1500;

/** Applies a loading hook to the page body promise. */
export async function withTestHook<T>(hook: TestHook | null, load: () => T): Promise<T> {
  if (hook?.kind === "slow") await new Promise((resolve) => setTimeout(resolve, TEST_SLOW_MS));
  if (hook?.kind === "fail") throw new Error("The page content could not be loaded (test hook).");
  if (hook?.kind === "fail-once" && hook.token && !failedTokens.has(hook.token)) {
    failedTokens.add(hook.token);
    throw new Error("The page content could not be loaded (test hook, first attempt).");
  }
  return load();
}
