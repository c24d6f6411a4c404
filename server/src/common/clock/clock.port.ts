/**
 * The worker's time (the port): what is due, when a lease ends, when a loop wakes and when an attempt is cut off are
 * all read from it. The system driver is the machine's clock; tests use the manual driver and move time forward
 * instead of sleeping (retries, leases, retention).
 */
export interface Clock {
  now(): Date;
  /** Calls `fire` once `ms` have passed on this clock; the returned function cancels it. */
  setTimer(ms: number, fire: () => void): () => void;
}

/** The injection token of the clock (the worker's composition provides the system driver unless a test passes another). */
export const CLOCK = Symbol('CLOCK');
