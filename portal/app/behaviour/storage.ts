// Browser storage can throw (privacy modes, quota, disabled cookies): a behaviour
// must keep working in memory when it does, so every access goes through here.

type StorageKind = "localStorage" | "sessionStorage";

function storage(kind: StorageKind): Storage | null {
  try {
    return typeof window === "undefined" ? null : window[kind];
  } catch {
    return null;
  }
}

export function readStorage(key: string, kind: StorageKind = "localStorage"): string | null {
  try {
    return storage(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null, kind: StorageKind = "localStorage"): void {
  try {
    const store = storage(kind);
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch {
    // Nothing to do: the value simply is not remembered.
  }
}

/** Calls `listener` when another tab changes `key` in localStorage. */
export function onStorageChange(key: string, listener: (value: string | null) => void): () => void {
  const handle = (event: StorageEvent) => {
    if (event.key === key || event.key === null) listener(event.key === null ? null : event.newValue);
  };
  window.addEventListener("storage", handle);
  return () => window.removeEventListener("storage", handle);
}
