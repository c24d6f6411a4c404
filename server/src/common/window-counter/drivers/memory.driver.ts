import type { FixedWindow, WindowCounter, WindowTake } from '../window-counter.port.js';

/** At most this many windows are kept; past it they are all forgotten (the limits are a guard, not a record). */
const MAX_WINDOWS = 10_000;

/**
 * Windows counted in this process alone: the Redis driver's stand-in while Redis does not answer, and a counter tests
 * drive with a clock of their own (`now`), moving time past a window instead of waiting for it.
 */
export class MemoryWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(readonly now: () => number = Date.now) {}

  take(key: string, window: FixedWindow, wanted: number): Promise<WindowTake> {
    return Promise.resolve(this.takeNow(key, window, wanted));
  }

  takeNow(key: string, { limit, windowMs }: FixedWindow, wanted: number): WindowTake {
    const now = this.now();
    let current = this.windows.get(key);
    if (!current || current.resetAt <= now) {
      if (this.windows.size >= MAX_WINDOWS) this.windows.clear();
      current = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, current);
    }
    const granted = Math.max(0, Math.min(wanted, limit - current.count));
    current.count += granted;
    return { granted, count: current.count, resetAt: current.resetAt };
  }

  count(key: string): Promise<number> {
    return Promise.resolve(this.countNow(key));
  }

  countNow(key: string): number {
    const current = this.windows.get(key);
    return current && current.resetAt > this.now() ? current.count : 0;
  }
}
