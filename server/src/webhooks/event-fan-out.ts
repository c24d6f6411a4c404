import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { EVENTS_QUEUE, type EventJob } from '../common/events/event-relay.service.js';
import { queueConsumer } from '../common/events/queue-consumers.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DeliveryEngine } from '../deliveries/delivery-engine.js';
import { mustWait } from '../deliveries/delivery-order.js';
import { eventGrants } from './event-permissions.js';

const GRANTS = eventGrants();

/**
 * The consumer of the `events` queue: turns each event into one webhook delivery per endpoint subscribed to it (the
 * enabled endpoints, in this worker's environment, of every integrator granted the event's company at this moment,
 * whose recorded permissions may read the event: event-permissions.ts), and marks the event dispatched, in one transaction. Jobs processed at the same moment are written together, one
 * statement for all of them. A delivery behind an earlier event of its document (one still undispatched, in this batch
 * or not, or one whose delivery to the endpoint has not been attempted yet) is made waiting (delivery-order.ts).
 * Running twice for an event (a job queued again after Redis lost it) adds nothing: there is one delivery per event
 * and endpoint.
 */
@Processor(EVENTS_QUEUE, queueConsumer({ concurrency: 128 }))
export class EventFanOut extends WorkerHost {
  private pending: Array<{ id: string; done: (error?: Error) => void }> = [];
  private flushing = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly engine: DeliveryEngine,
  ) {
    super();
  }

  process(job: Job<EventJob>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id: job.data.id, done: (error) => (error ? reject(error) : resolve()) });
      if (!this.flushing) setImmediate(() => void this.flush());
      this.flushing = true;
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.fanOut(batch.map((entry) => entry.id));
        for (const entry of batch) entry.done();
        this.engine.wake();
      } catch (error) {
        for (const entry of batch) entry.done(error as Error);
      }
    }
    this.flushing = false;
  }

  async fanOut(eventIds: string[]): Promise<void> {
    await this.db.query(
      `WITH ev AS (
         SELECT id, company_id, type, payload->>'id' AS subject, created_at FROM events WHERE id = ANY($1::uuid[]) AND dispatched_at IS NULL
       ), fresh AS (
         SELECT e.id AS endpoint_id, ev.id AS event_id, ev.subject AS ordering_key, ev.created_at AS ordering_at
           FROM ev
           JOIN company_grants g ON g.company_id = ev.company_id
           JOIN webhook_endpoints e ON e.integrator_id = g.integrator_id AND e.environment = $2 AND e.enabled
          WHERE EXISTS (SELECT 1 FROM unnest($3::text[], $4::text[]) AS r(type, permission) WHERE r.type = ev.type AND r.permission = ANY(e.permissions))
       ), fanned AS (
         INSERT INTO deliveries (channel, endpoint_id, event_id, ordering_key, ordering_at, waiting)
         SELECT 'webhook', f.endpoint_id, f.event_id, f.ordering_key, f.ordering_at, ${mustWait('f')} FROM fresh f
         ON CONFLICT (endpoint_id, event_id) DO NOTHING
       )
       UPDATE events SET dispatched_at = now() WHERE id IN (SELECT id FROM ev)`,
      [eventIds, this.config.environment, GRANTS.types, GRANTS.permissions],
    );
  }
}
