import type { Clock } from '../clock.port.js';

interface Timer {
  at: number;
  fire: () => void;
  handle: NodeJS.Timeout;
}

/**
 * A clock that tests move forward: it runs with real time (so PostgreSQL's `now()`, which stamps new rows, is never
 * ahead of it) and `advance(ms)` jumps it ahead, firing at once, in order, every timer that has come due. A retry
 * scheduled an hour away, a lease or a 10-minute sweep is then reached in a call instead of a wait.
 */
export class ManualClock implements Clock {
  private offset = 0;
  private readonly timers = new Set<Timer>();

  now(): Date {
    return new Date(Date.now() + this.offset);
  }

  /** Timers set and not yet fired: a test waits for a loop to be asleep before it moves time past its sleep. */
  get pending(): number {
    return this.timers.size;
  }

  setTimer(ms: number, fire: () => void): () => void {
    const timer: Timer = { at: this.now().getTime() + Math.max(0, ms), fire, handle: undefined as unknown as NodeJS.Timeout };
    this.arm(timer);
    this.timers.add(timer);
    return () => {
      clearTimeout(timer.handle);
      this.timers.delete(timer);
    };
  }

  /** Moves time forward by `ms`, firing the timers now due (earliest first), and lets their callbacks run. */
  async advance(ms: number): Promise<void> {
    this.offset += ms;
    const due = [...this.timers].filter((timer) => timer.at <= this.now().getTime()).sort((a, b) => a.at - b.at);
    for (const timer of due) {
      clearTimeout(timer.handle);
      this.timers.delete(timer);
      timer.fire();
    }
    for (const timer of this.timers) {
      clearTimeout(timer.handle);
      this.arm(timer);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }

  private arm(timer: Timer): void {
    timer.handle = setTimeout(
      () => {
        this.timers.delete(timer);
        timer.fire();
      },
      Math.max(0, timer.at - this.now().getTime()),
    );
    timer.handle.unref();
  }
}
