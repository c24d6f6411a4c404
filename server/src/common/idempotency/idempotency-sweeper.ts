import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock/clock.port.js';
import { SystemClock } from '../clock/drivers/system.driver.js';
import { WorkerLoop } from '../events/worker-loop.js';
import { IdempotencyService } from './idempotency.service.js';

/** How often the worker deletes expired keys (the API already ignores them: this only keeps the table small). */
const SWEEP_EVERY_MS = 10 * 60_000;

/** The worker's cleanup of `idempotency_keys` older than their 24 hours, a worker loop (worker-loop.ts). */
@Injectable()
export class IdempotencySweeper extends WorkerLoop {
  protected readonly logger = new Logger(IdempotencySweeper.name);

  constructor(
    private readonly keys: IdempotencyService,
    @Inject(CLOCK) clock: Clock = new SystemClock(),
  ) {
    super({ what: 'idempotency sweep', idleMs: SWEEP_EVERY_MS }, clock);
  }

  protected async round(): Promise<number> {
    await this.sweep();
    return SWEEP_EVERY_MS;
  }

  /** Deletes every expired key, in batches; returns how many. */
  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (let deleted = await this.keys.deleteExpired(); deleted > 0; deleted = await this.keys.deleteExpired()) total += deleted;
    } catch (error) {
      this.logger.error(`deleting expired idempotency keys failed, retrying later: ${(error as Error).message}`);
    }
    return total;
  }
}
