import { useEffect, useState } from "react";
import { readStorage, writeStorage } from "./storage";

const RELOAD_GUARD_KEY = "flusso.reloaded-after-failed-load";
const GUARD_WINDOW_MS = 10_000;

/**
 * The browser could not fetch what the next route needs (network down, or a deploy
 * removed the old assets). Route module import failures Remix already reloads itself.
 */
export function isFailedRouteLoad(error: unknown): boolean {
  return error instanceof TypeError && /fetch|network|load/i.test(error.message);
}

/** Whether to reload: not twice for the same URL in a short time, so a dead network cannot loop. */
export function shouldReload(url: string, now: number, lastReload: string | null): boolean {
  if (!lastReload) return true;
  const [lastUrl, at] = [lastReload.slice(lastReload.indexOf(" ") + 1), Number(lastReload.split(" ")[0])];
  return lastUrl !== url || now - at > GUARD_WINDOW_MS;
}

function decideReload(error: unknown): boolean {
  return (
    typeof window !== "undefined" &&
    isFailedRouteLoad(error) &&
    shouldReload(window.location.href, Date.now(), readStorage(RELOAD_GUARD_KEY, "sessionStorage"))
  );
}

/** A full page load of the same URL replaces a route change whose data or code failed to load. */
export function useReloadOnFailedNavigation(error: unknown): boolean {
  // Decided once per error, when it first renders (React renders again at once after the update below): a re-render
  // ten seconds later must not change the answer.
  const [decision, setDecision] = useState(() => ({ error, reload: decideReload(error) }));
  if (decision.error !== error) setDecision({ error, reload: decideReload(error) });
  const { reload } = decision;

  useEffect(() => {
    if (!reload) return;
    writeStorage(RELOAD_GUARD_KEY, `${Date.now()} ${window.location.href}`, "sessionStorage");
    window.location.reload();
  }, [reload]);

  return reload;
}
