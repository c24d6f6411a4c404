import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { IdempotencyService } from './idempotency.service.js';

/** How often the worker deletes expired keys (the API already ignores them: this only keeps the table small). */
const SWEEP_EVERY_MS = 10 * 60_000;

/** The worker's cleanup of `idempotency_keys` older than their 24 hours. */
@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencySweeper.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  constructor(private readonly keys: IdempotencyService) {}

  onApplicationBootstrap(): void {
    // A sweep logs its own failure; shutdown awaits the one under way.
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    }, SWEEP_EVERY_MS);
    this.timer.unref();
    this.sweeping = this.sweep().finally(() => (this.sweeping = undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
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
