import { startTransition, useCallback, useEffect, useState } from "react";
import { readStorage, writeStorage } from "./storage";

export const ANNOUNCEMENT_DISMISS_STORAGE_KEY = "flusso.announcement.dismiss";
export const ANNOUNCEMENT_ID_STORAGE_KEY = "flusso.announcement.id";

/**
 * Hides a dismissed bar before the first paint (CSS keys off the attribute), so
 * returning visitors do not see it flash. A new id is never hidden.
 */
export function announcementScript(id: string) {
  return `(function(){try{if(localStorage.getItem(${JSON.stringify(ANNOUNCEMENT_ID_STORAGE_KEY)})===${JSON.stringify(id)}
&&localStorage.getItem(${JSON.stringify(ANNOUNCEMENT_DISMISS_STORAGE_KEY)})==="true")
document.documentElement.dataset.announcementDismissed="true"}catch(e){}})();`;
}

export function useAnnouncementBar(id: string | undefined) {
  // Rendered open on the server and during hydration, so the markup matches; the
  // inline script hides it meanwhile if it was dismissed.
  const [closed, setClosed] = useState(false);

  useEffect(() => {
    if (!id) return;
    const isNew = readStorage(ANNOUNCEMENT_ID_STORAGE_KEY) !== id;
    writeStorage(ANNOUNCEMENT_ID_STORAGE_KEY, id);
    if (isNew) writeStorage(ANNOUNCEMENT_DISMISS_STORAGE_KEY, "false");
    const dismissed = !isNew && readStorage(ANNOUNCEMENT_DISMISS_STORAGE_KEY) === "true";
    startTransition(() => setClosed(dismissed));
  }, [id]);

  const close = useCallback(() => {
    writeStorage(ANNOUNCEMENT_DISMISS_STORAGE_KEY, "true");
    document.documentElement.dataset.announcementDismissed = "true";
    setClosed(true);
  }, []);

  return { isActive: Boolean(id) && !closed, close };
}
