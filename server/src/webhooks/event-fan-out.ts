import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock/clock.port.js';
import { PgListener } from '../common/database/pg-listener.js';
import { WORK_CHANNELS } from '../common/database/work-channels.js';
import { WorkerLoop } from '../common/events/worker-loop.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DeliveriesRepository } from '../deliveries/deliveries.repository.js';
import { DeliveryEngine } from '../deliveries/delivery-engine.js';
import { eventGrants } from './event-permissions.js';

const GRANTS = eventGrants();
/** Events fanned out per statement: a full batch is followed by the next at once. */
export const FAN_OUT_BATCH = 200;
/** Longest sleep without a notification (one comes as soon as an event commits). */
const IDLE_MS = 1000;

/**
 * The fan-out reads the outbox straight from PostgreSQL: it claims undispatched events in the order they were recorded
 * (SKIP LOCKED, so workers share them) and, in the same statement, inserts one webhook delivery per endpoint subscribed
 * to each (the enabled endpoints, in this worker's environment, of every integrator granted the event's company,
 * whose recorded permissions read the event: event-permissions.ts) and marks them dispatched. A worker that dies
 * mid-batch leaves nothing behind: its transaction rolls back and the events are claimed again at once. Woken by the
 * `events` notification (a trigger, at commit); it wakes this worker's delivery engine when it made deliveries.
 */
@Injectable()
export class EventFanOut extends WorkerLoop {
  protected readonly logger = new Logger(EventFanOut.name);

  constructor(
    private readonly deliveries: DeliveriesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly engine: DeliveryEngine,
    @Inject(CLOCK) clock: Clock,
    listener: PgListener,
  ) {
    super({ what: 'fan-out', idleMs: IDLE_MS, channel: WORK_CHANNELS.events }, clock, listener);
  }

  protected async round(): Promise<number> {
    const fanned = await this.fanOut();
    if (fanned > 0) this.engine.wake();
    return fanned === FAN_OUT_BATCH ? 0 : IDLE_MS;
  }

  /** Fans out one batch of events; returns how many. */
  fanOut(): Promise<number> {
    return this.deliveries.fanOut(FAN_OUT_BATCH, this.config.environment, GRANTS);
  }
}
