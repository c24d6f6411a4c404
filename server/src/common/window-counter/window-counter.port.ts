/**
 * Fixed windows of hits per key, counted where every process sees them (rate limits per API key, failed
 * authentications per key prefix and per address). A window starts at its key's first hit and ends `windowMs` later.
 */
export interface FixedWindow {
  /** Hits a window grants at most. */
  limit: number;
  windowMs: number;
}

export interface WindowTake {
  /** The hits granted: those wanted, or fewer (0) when the window has not that many left. */
  granted: number;
  /** The window's count after the grant (every process's hits, when the counter is shared). */
  count: number;
  /** When the window ends, on the counter's clock (`now()`). */
  resetAt: number;
  /**
   * The value of the key named by `take`'s `read`, read in the same round trip (null: no such key); undefined when the
   * window was counted without the shared store.
   */
  read?: string | null;
}

export interface WindowCounter {
  /** Takes up to `wanted` hits from the key's window, atomically: a window never grants more than its limit. */
  take(key: string, window: FixedWindow, wanted: number, read?: string): Promise<WindowTake>;
  /** The hits counted in the key's current window, 0 when it has none. */
  count(key: string): Promise<number>;
  /** The counter's clock in milliseconds: what `resetAt` is compared with. */
  now(): number;
}

/** The DI token of the process's window counter (window-counter.factory.ts). */
export const WINDOW_COUNTER = Symbol('WINDOW_COUNTER');
