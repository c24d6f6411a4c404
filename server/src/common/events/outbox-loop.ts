import type { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Doorbell } from './doorbell.js';

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
 * The loop of an outbox relay that moves rows recorded in PostgreSQL into a queue (events to `events`, transmissions
 * to `sdi`): a sweep every `sweepEveryMs` queues again what Redis lost, then batches are moved until one is not full,
 * then it sleeps until the doorbell rings or `idleMs` passes. A failed round is logged and tried again.
 */
export abstract class OutboxLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly logger: Logger;
  protected readonly doorbell = new Doorbell();
  private running = false;
  private loop?: Promise<void>;
  private lastSweep = 0;

  protected constructor(private readonly settings: OutboxLoopSettings) {}

  /** Moves one batch; returns how many rows it moved. */
  protected abstract moveBatch(): Promise<number>;

  /** Queues again what was queued a while ago and whose job is gone. */
  protected abstract sweepLost(): Promise<void>;

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.doorbell.ring();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { batch, idleMs, sweepEveryMs, what } = this.settings;
    while (this.running) {
      try {
        if (Date.now() - this.lastSweep > sweepEveryMs) {
          this.lastSweep = Date.now();
          await this.sweepLost();
        }
        if ((await this.moveBatch()) === batch) continue;
      } catch (error) {
        this.logger.error(`${what} failed, retrying: ${(error as Error).message}`);
      }
      await this.doorbell.wait(idleMs);
    }
  }
}
