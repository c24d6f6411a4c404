import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock/clock.port.js';
import { WorkerLoop } from '../common/events/worker-loop.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { REQUEST_LOG_DAYS, RequestLogsRepository } from '../request-logs/request-logs.repository.js';
import { DeliveriesRepository } from './deliveries.repository.js';

/** How often the worker removes what is past its retention. */
export const RETENTION_EVERY_MS = 10 * 60_000;
/** Rows deleted per statement: each is a short transaction, so the sweep never holds the claim or the API back. */
export const RETENTION_BATCH = 500;

/** What one sweep removed. */
export interface Swept {
  deliveries: number;
  events: number;
  requestLogs: number;
}

/**
 * The one place that removes old outbound records, in small batches, every RETENTION_EVERY_MS of the worker's clock:
 * - a delivery that succeeded, RETENTION_DELIVERED_DAYS after it did; one that failed for good (or is still pending
 *   for an endpoint disabled all that time), RETENTION_FAILED_DAYS after it completed (was created); its attempts go
 *   with it. The mail delivery of an invoice share is kept with the share (its status);
 * - an event, RETENTION_EVENTS_DAYS after it was recorded, once fanned out and no delivery of it is kept (a delivery
 *   can be replayed only while its event is kept).
 * - an entry of the integrators' request log, REQUEST_LOG_DAYS after its request.
 * Each statement checks its conditions again on the rows it deletes, so a delivery replayed meanwhile stays.
 */
@Injectable()
export class Retention extends WorkerLoop {
  protected readonly logger = new Logger(Retention.name);

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly requestLogs: RequestLogsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) clock: Clock,
  ) {
    super({ what: 'retention', idleMs: RETENTION_EVERY_MS }, clock);
  }

  protected async round(): Promise<number> {
    await this.sweep();
    return RETENTION_EVERY_MS;
  }

  /** Removes everything past its retention at the clock's time, batch after batch; returns how much. */
  async sweep(): Promise<Swept> {
    const now = this.clock.now();
    const { deliveredMs, failedMs, eventsMs } = this.config.retention;
    const before = (ms: number) => new Date(now.getTime() - ms);
    const swept: Swept = { deliveries: 0, events: 0, requestLogs: 0 };
    try {
      swept.deliveries += await inBatches((limit) => this.deliveries.deleteCompleted('succeeded', before(deliveredMs), limit));
      swept.deliveries += await inBatches((limit) => this.deliveries.deleteCompleted('failed', before(failedMs), limit));
      swept.deliveries += await inBatches((limit) => this.deliveries.deletePendingOfDisabledEndpoints(before(failedMs), limit));
      swept.events += await inBatches((limit) => this.deliveries.deleteFannedOutEvents(before(eventsMs), limit));
      swept.requestLogs += await inBatches((limit) => this.requestLogs.deleteBefore(before(REQUEST_LOG_DAYS * 86_400_000), limit));
    } catch (error) {
      this.logger.error(`removing old deliveries and events failed, retrying later: ${(error as Error).message}`);
    }
    if (swept.deliveries || swept.events || swept.requestLogs) {
      this.logger.log(
        `retention: removed ${swept.deliveries} deliveries (with their attempts), ${swept.events} events and ${swept.requestLogs} request log entries`,
      );
    }
    return swept;
  }
}

/** Runs a delete of up to RETENTION_BATCH rows until one deletes less than a full batch; returns how many in all. */
async function inBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(RETENTION_BATCH);
    total += deleted;
    if (deleted < RETENTION_BATCH) return total;
  }
}
