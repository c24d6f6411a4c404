import type { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '../clock/clock.port.js';
import type { PgListener } from '../database/pg-listener.js';
import type { WORK_CHANNELS } from '../database/work-channels.js';
import { Doorbell } from './doorbell.js';

export interface WorkerLoopSettings {
  /** Names the work in the error logged when a round fails. */
  what: string;
  /** Longest sleep between rounds when a round asks for none shorter (a notification rings the doorbell sooner). */
  idleMs: number;
  /** How often `periodically` runs, if the loop has it. */
  sweepEveryMs?: number;
  /** The PostgreSQL notification channel (LISTEN through DATABASE_DIRECT_URL) that rings the doorbell. */
  channel?: (typeof WORK_CHANNELS)[keyof typeof WORK_CHANNELS];
}

/** A failed round is tried again after this, doubled on each failure in a row up to MAX_BACK_OFF_MS. */
const FIRST_BACK_OFF_MS = 100;
const MAX_BACK_OFF_MS = 5000;

/**
 * The one lifecycle of the worker's loops (the fan-out, the delivery engine, retention, the SDI dispatcher, the
 * idempotency sweeper): started when the worker has booted; each round does its work and says how long to sleep
 * (0: more is waiting, go on at once); `periodically` every `sweepEveryMs`; a doorbell (a notification, or `wake()` from the
 * same process) cuts a sleep short; a failed round is logged and tried again with a growing back-off; on shutdown the
 * loop finishes its round and stops. Time is the clock port's, so tests move it instead of sleeping.
 */
export abstract class WorkerLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly logger: Logger;
  protected readonly doorbell: Doorbell;
  private running = false;
  private loop?: Promise<void>;
  private lastSweep?: number;

  protected constructor(
    private readonly settings: WorkerLoopSettings,
    protected readonly clock: Clock,
    listener?: PgListener,
  ) {
    this.doorbell = new Doorbell(clock);
    if (settings.channel) listener?.on(settings.channel, this.doorbell.ring);
  }

  /** Does one round of work; returns how long to sleep before the next, at most `idleMs` (0 to go on at once). */
  protected abstract round(): Promise<number>;

  /** Periodic work beside the rounds (what a race or a lost queue job left behind, old rows). */
  protected periodically?(): Promise<unknown>;

  /** Lets the loop run a round now (work was just made for it in this process). */
  readonly wake = (): void => this.doorbell.ring();

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
    const { what, idleMs, sweepEveryMs } = this.settings;
    let backOff = FIRST_BACK_OFF_MS;
    while (this.running) {
      let sleep: number;
      try {
        const now = this.clock.now().getTime();
        if (this.periodically && sweepEveryMs !== undefined && (this.lastSweep === undefined || now - this.lastSweep >= sweepEveryMs)) {
          this.lastSweep = now;
          await this.periodically();
        }
        sleep = Math.min(await this.round(), idleMs);
        backOff = FIRST_BACK_OFF_MS;
      } catch (error) {
        this.logger.error(`${what} failed, retrying in ${backOff} ms: ${(error as Error).message}`);
        sleep = backOff;
        backOff = Math.min(backOff * 2, MAX_BACK_OFF_MS);
      }
      if (sleep > 0 && this.running) await this.doorbell.wait(this.untilSweep(sleep));
    }
  }

  /** A sleep no longer than the time left until `periodically` is due. */
  private untilSweep(sleep: number): number {
    const { sweepEveryMs } = this.settings;
    if (!this.periodically || sweepEveryMs === undefined || this.lastSweep === undefined) return sleep;
    return Math.max(0, Math.min(sleep, this.lastSweep + sweepEveryMs - this.clock.now().getTime()));
  }
}
