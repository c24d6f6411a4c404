import type { Clock } from '../clock/clock.port.js';
import { SystemClock } from '../clock/drivers/system.driver.js';
import { WorkerLoop } from './worker-loop.js';

/** A queue call (Redis) that takes longer fails: the round is tried again, and PostgreSQL still holds the work. */
const QUEUE_TIMEOUT_MS = 5000;

/** Bounds a queue call, so that a Redis that hangs fails the round instead of stopping the loop. */
export function withQueueTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${QUEUE_TIMEOUT_MS} ms`)), QUEUE_TIMEOUT_MS)),
  );
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface OutboxLoopSettings {
  /** Rows moved per batch: a full batch is followed by the next at once. */
  batch: number;
  /** Longest sleep without a ring (a PostgreSQL notification rings as soon as rows commit). */
  idleMs: number;
  /** How often the sweep runs (and how old a queued row must be before it counts as lost). */
  sweepEveryMs: number;
  /** Names the work in the error logged when a round fails. */
  what: string;
}

/**
 * A worker loop (worker-loop.ts) that moves rows recorded in PostgreSQL into a BullMQ queue (transmissions to `sdi`):
 * batches are moved until one is not full, and every `sweepEveryMs` what Redis lost is queued again.
 */
export abstract class OutboxLoop extends WorkerLoop {
  protected constructor(
    private readonly outbox: OutboxLoopSettings,
    clock: Clock = new SystemClock(),
  ) {
    super({ what: outbox.what, idleMs: outbox.idleMs, sweepEveryMs: outbox.sweepEveryMs }, clock);
  }

  /** Moves one batch; returns how many rows it moved. */
  protected abstract moveBatch(): Promise<number>;

  /** Queues again what was queued a while ago and whose job is gone. */
  protected abstract sweepLost(): Promise<void>;

  protected async round(): Promise<number> {
    return (await this.moveBatch()) === this.outbox.batch ? 0 : this.outbox.idleMs;
  }

  protected override periodically(): Promise<void> {
    return this.sweepLost();
  }
}
