/**
 * jsdom has no matchMedia. This one answers from a shared table, and `setMedia` fires
 * `change` on the live queries, as a browser does when the OS theme or the width changes.
 */
type Listener = (event: { matches: boolean }) => void;
type MediaTable = { state: Record<string, boolean>; listeners: Map<string, Set<Listener>> };

const table: MediaTable = ((globalThis as { __media?: MediaTable }).__media ??= { state: {}, listeners: new Map() });

export function installMatchMedia() {
  window.matchMedia = ((query: string) => {
    const set = table.listeners.get(query) ?? new Set<Listener>();
    table.listeners.set(query, set);
    return {
      get matches() {
        return Boolean(table.state[query]);
      },
      media: query,
      onchange: null,
      addEventListener: (_: string, listener: Listener) => set.add(listener),
      removeEventListener: (_: string, listener: Listener) => set.delete(listener),
      addListener: (listener: Listener) => set.add(listener),
      removeListener: (listener: Listener) => set.delete(listener),
      dispatchEvent: () => true,
    };
  }) as unknown as typeof window.matchMedia;
}

export function setMedia(query: string, value: boolean) {
  table.state[query] = value;
  table.listeners.get(query)?.forEach((listener) => listener({ matches: value }));
}

export function resetMedia() {
  for (const key of Object.keys(table.state)) delete table.state[key];
}
