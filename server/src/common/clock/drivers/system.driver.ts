import type { Clock } from '../clock.port.js';

/** The machine's clock, with Node's timers. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }

  setTimer(ms: number, fire: () => void): () => void {
    const timer = setTimeout(fire, Math.max(0, ms));
    return () => clearTimeout(timer);
  }
}
