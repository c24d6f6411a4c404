import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** How often the worker removes what is past its retention. */
const SWEEP_EVERY_MS = 10 * 60_000;
/** Rows deleted per statement: each is a short transaction, so the sweep never holds the claim or the API back. */
export const RETENTION_BATCH = 500;

/** What one sweep removed. */
export interface Swept {
  deliveries: number;
  events: number;
}

/**
 * The one place that removes old outbound records, in small batches, every SWEEP_EVERY_MS:
 * - a delivery that succeeded, RETENTION_DELIVERED_DAYS after it did; one that failed for good (or is still pending
 *   for an endpoint disabled all that time), RETENTION_FAILED_DAYS after it completed (was created); its attempts go
 *   with it. The mail delivery of an invoice share is kept with the share (its status);
 * - an event, RETENTION_EVENTS_DAYS after it was recorded, once fanned out and no delivery of it is kept (a delivery
 *   can be replayed only while its event is kept).
 * Each statement checks its conditions again on the rows it deletes, so a delivery replayed meanwhile stays.
 */
@Injectable()
export class Retention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Retention.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<Swept>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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

  /** Removes everything past its retention at `now`, batch after batch; returns how much. */
  async sweep(now = new Date()): Promise<Swept> {
    const { deliveredMs, failedMs, eventsMs } = this.config.retention;
    const before = (ms: number) => new Date(now.getTime() - ms);
    const swept: Swept = { deliveries: 0, events: 0 };
    try {
      swept.deliveries += await this.inBatches(
        `DELETE FROM deliveries d WHERE d.id IN (
           SELECT id FROM deliveries WHERE status <> 'pending' AND completed_at < $1 AND status = $2
              AND NOT EXISTS (SELECT 1 FROM invoice_shares s WHERE s.delivery_id = deliveries.id) LIMIT $3)
           AND d.status = $2 AND d.completed_at < $1`,
        [
          [before(deliveredMs), 'succeeded'],
          [before(failedMs), 'failed'],
        ],
      );
      swept.deliveries += await this.inBatches(
        `DELETE FROM deliveries d WHERE d.id IN (
           SELECT d.id FROM webhook_endpoints e JOIN deliveries d ON d.endpoint_id = e.id
            WHERE NOT e.enabled AND d.status = 'pending' AND d.created_at < $1 AND d.claim_id IS NULL LIMIT $2)
           AND d.status = 'pending' AND d.created_at < $1 AND d.claim_id IS NULL
           AND NOT (SELECT enabled FROM webhook_endpoints e WHERE e.id = d.endpoint_id)`,
        [[before(failedMs)]],
      );
      swept.events += await this.inBatches(
        `DELETE FROM events ev WHERE ev.id IN (
           SELECT id FROM events WHERE created_at < $1 AND dispatched_at IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = events.id) LIMIT $2)
           AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = ev.id)`,
        [[before(eventsMs)]],
      );
    } catch (error) {
      this.logger.error(`removing old deliveries and events failed, retrying later: ${(error as Error).message}`);
    }
    if (swept.deliveries || swept.events) {
      this.logger.log(`retention: removed ${swept.deliveries} deliveries (with their attempts) and ${swept.events} events`);
    }
    return swept;
  }

  /** Runs `sql` (its last parameter the batch size) for each parameter set until a batch deletes less than a full one. */
  private async inBatches(sql: string, parameterSets: unknown[][]): Promise<number> {
    let total = 0;
    for (const parameters of parameterSets) {
      for (;;) {
        const [, deleted]: [unknown, number] = await this.db.query(sql, [...parameters, RETENTION_BATCH]);
        total += deleted;
        if (deleted < RETENTION_BATCH) break;
      }
    }
    return total;
  }
}
