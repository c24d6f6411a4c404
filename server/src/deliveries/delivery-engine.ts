import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DELIVERY_SENDERS, type ClaimedDelivery, type DeliverySender, type Outcome } from './delivery-sender.js';
import { Doorbell } from '../common/events/doorbell.js';
import { PgListener } from '../common/database/pg-listener.js';
import { nextAttemptDelay } from './retry-schedule.js';
import { mustWait } from './delivery-order.js';
import { WORK_CHANNELS } from '../common/database/work-channels.js';

/** Deliveries claimed per query. */
const CLAIM_BATCH = 500;
/** Longest sleep without a notification: covers notifications lost while the LISTEN connection was down. */
const POLL_MS = 1000;
/** How often waiting deliveries left behind by a race are looked for. */
const RELEASE_MS = 5000;

/**
 * The delivery core: claims due deliveries from PostgreSQL in batches (FOR UPDATE SKIP LOCKED, so any number of
 * workers share the work and none takes a delivery another holds), sends them concurrently through their channel's
 * sender, and records the attempts in bulk. PostgreSQL is the only record: a claim moves `next_attempt_at` forward by a
 * lease, so a delivery whose worker died is due again when the lease ends, and nothing depends on Redis.
 *
 * Order (delivery-order.ts): a delivery behind an earlier one of its document is made `waiting` when fanned out, and
 * is let go when the earlier one's first attempt is recorded, in the same transaction. A fan-out and a recording that
 * run at the same moment may each miss the other's rows; every RELEASE_MS the engine lets go of any waiting delivery
 * that no longer has a reason to wait.
 */
@Injectable()
export class DeliveryEngine implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryEngine.name);
  private readonly senders: Map<string, DeliverySender>;
  private readonly doorbell = new Doorbell();
  private readonly leaseMs: number;
  private running = false;
  private loop?: Promise<void>;
  private inFlight = 0;
  /**
   * Deliveries this engine has claimed and not yet recorded. A stalled process (a busy machine) can outlive its lease;
   * it then must not claim its own deliveries a second time, and send them twice, while their first attempt is still
   * being sent or recorded here.
   */
  private readonly held = new Set<string>();
  private finished: Outcome[] = [];
  private recording?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DELIVERY_SENDERS) senders: DeliverySender[],
    listener: PgListener,
  ) {
    this.senders = new Map(senders.map((sender) => [sender.channel, sender]));
    // Long enough for an attempt to time out and be recorded; a delivery held longer belonged to a worker that died.
    this.leaseMs = 2 * config.webhooks.timeoutMs + 5000;
    listener.on(WORK_CHANNELS.deliveries, this.doorbell.ring);
  }

  /** Lets the engine look for due deliveries now (new ones were just inserted in this process). */
  readonly wake = (): void => this.doorbell.ring();

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.doorbell.ring();
    await this.loop;
    while (this.inFlight > 0 || this.recording) await (this.recording ?? new Promise((resolve) => setTimeout(resolve, 20)));
  }

  private async run(): Promise<void> {
    let backOff = 100;
    let released = Date.now();
    while (this.running) {
      try {
        if (Date.now() - released >= RELEASE_MS) {
          released = Date.now();
          await this.releaseStranded();
        }
        const room = this.config.webhooks.concurrency - this.inFlight;
        const wanted = Math.min(room, CLAIM_BATCH);
        const claimed = wanted > 0 ? await this.claim(wanted) : [];
        for (const delivery of claimed) this.dispatch(delivery);
        backOff = 100;
        if (claimed.length > 0 && claimed.length === wanted) continue;
        await this.doorbell.wait(claimed.length > 0 || wanted === 0 ? POLL_MS : await this.untilNextDue());
      } catch (error) {
        this.logger.error(`delivery loop: ${(error as Error).message}; retrying in ${backOff} ms`);
        await this.doorbell.wait(backOff);
        backOff = Math.min(backOff * 2, 5000);
      }
    }
  }

  /** Claims up to `limit` due deliveries and loads what their senders need, in one transaction. */
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.db.transaction(async (manager) => {
      // The due deliveries are read in their index's order, and the scan stops at the limit. A queue table's
      // statistics are always behind: believing few deliveries due, the planner would read every due one and sort
      // them, which took half a second per claim with 50,000 deliveries queued.
      await manager.query(`SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`);
      return this.selectDue(manager, limit);
    });
    const events = new Map<string, NonNullable<ClaimedDelivery['event']>>();
    for (const row of rows) {
      if (row.event_id && row.payload) {
        events.set(row.event_id as string, {
          id: row.event_id as string,
          companyId: row.company_id as string,
          type: row.type as string,
          payload: row.payload as Record<string, unknown>,
        });
      }
    }
    return rows.map((row) => ({
      id: row.id as string,
      channel: row.channel as ClaimedDelivery['channel'],
      attempts: row.attempts as number,
      message: row.message as ClaimedDelivery['message'],
      endpoint: row.endpoint_id
        ? {
            id: row.endpoint_id as string,
            integratorId: row.integrator_id as string,
            url: row.url as string,
            permissions: row.permissions as string[],
            secret: row.secret as string,
            previousSecret: row.previous_secret as string | null,
            previousSecretExpiresAt: row.previous_secret_expires_at as Date | null,
            failingSince: row.failing_since as Date | null,
            updatedAt: row.updated_at as Date,
          }
        : null,
      event: row.event_id ? events.get(row.event_id as string)! : null,
    }));
  }

  /** Moves the lease of up to `limit` due deliveries forward, and reads them with their endpoint and event. */
  private selectDue(manager: EntityManager, limit: number): Promise<Array<Record<string, unknown>>> {
    return manager.query(
      `WITH due AS (
         SELECT d.id FROM deliveries d
           LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND NOT d.waiting AND d.next_attempt_at <= now()
            AND d.channel = ANY($3::text[])
            AND NOT (d.id = ANY($4::uuid[]))
            AND (d.endpoint_id IS NULL OR e.enabled)
          ORDER BY d.next_attempt_at
          LIMIT $1
          FOR UPDATE OF d SKIP LOCKED
       ), claimed AS (
         UPDATE deliveries d SET next_attempt_at = now() + make_interval(secs => $2::int / 1000.0)
           FROM due WHERE d.id = due.id
         RETURNING d.id, d.channel, d.attempts, d.message, d.endpoint_id, d.event_id
       )
       SELECT c.id, c.channel, c.attempts, c.message,
              e.id AS endpoint_id, e.integrator_id, e.url, e.permissions, e.secret, e.previous_secret, e.previous_secret_expires_at,
              e.failing_since, e.updated_at,
              ev.id AS event_id, ev.company_id, ev.type,
              -- An event goes to many endpoints: its payload is sent (and parsed) once per claim.
              CASE WHEN row_number() OVER (PARTITION BY ev.id) = 1 THEN ev.payload END AS payload
         FROM claimed c
         LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id
         LEFT JOIN events ev ON ev.id = c.event_id`,
      [limit, this.leaseMs, [...this.senders.keys()], [...this.held]],
    );
  }

  /** Lets go of the waiting deliveries with no earlier one left to wait for: the first of each document's queue. */
  async releaseStranded(): Promise<number> {
    const [, count]: [unknown, number] = await this.db.query(
      `UPDATE deliveries d SET waiting = false
        WHERE d.id IN (SELECT DISTINCT ON (endpoint_id, ordering_key) id FROM deliveries WHERE waiting
                        ORDER BY endpoint_id, ordering_key, ordering_at)
          AND d.waiting AND NOT ${mustWait('d')}`,
    );
    return count;
  }

  /** How long to sleep when nothing is due: until the next delivery is, at most POLL_MS. */
  private async untilNextDue(): Promise<number> {
    const [{ at }] = await this.db.query(
      `SELECT min(next_attempt_at) AS at FROM deliveries WHERE status = 'pending' AND NOT waiting AND next_attempt_at > now()`,
    );
    return at ? Math.min(POLL_MS, (at as Date).getTime() - Date.now() + 5) : POLL_MS;
  }

  private dispatch(delivery: ClaimedDelivery): void {
    this.inFlight++;
    this.held.add(delivery.id);
    const sender = this.senders.get(delivery.channel)!;
    const attemptedAt = new Date();
    sender
      .send(delivery)
      .catch((error: Error) => ({
        ok: false,
        attemptedAt,
        durationMs: Date.now() - attemptedAt.getTime(),
        responseStatus: null,
        responseBody: null,
        error: error.message,
      }))
      .then((result) => {
        this.finished.push({ delivery, result });
        this.record();
      });
  }

  /** Records finished attempts, all that have piled up since the last write, in one transaction. */
  private record(): void {
    if (this.recording || this.finished.length === 0) return;
    const batch = this.finished;
    this.finished = [];
    this.recording = this.write(batch)
      .then(
        () => undefined,
        (error: Error) => {
          // Unrecorded attempts are made again when their lease ends: at least once, never lost.
          this.logger.error(`recording ${batch.length} attempt(s) failed: ${error.message}`);
        },
      )
      .finally(() => {
        this.inFlight -= batch.length;
        for (const { delivery } of batch) this.held.delete(delivery.id);
        this.recording = undefined;
        this.doorbell.ring();
        this.record();
      });
  }

  private async write(outcomes: Outcome[]): Promise<void> {
    const now = Date.now();
    const rows = outcomes.map(({ delivery, result }) => {
      const made = delivery.attempts + 1;
      const delay = result.ok || result.permanent ? null : nextAttemptDelay(this.senders.get(delivery.channel)!.retrySchedule, made, result.retryAfterMs);
      return {
        id: delivery.id,
        status: result.ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
        next: delay === null ? null : new Date(now + delay),
        result,
      };
    });
    await this.db.transaction(async (manager) => {
      const [updated]: [Array<{ endpoint_id: string | null; ordering_key: string | null; attempts: number }>] = await manager.query(
        `WITH o AS (
           SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::timestamptz[])
             AS o(delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error, status, next_attempt_at)
            WHERE EXISTS (SELECT 1 FROM deliveries d WHERE d.id = delivery_id)
         ), attempts AS (
           INSERT INTO delivery_attempts (delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error)
           SELECT delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error FROM o
         )
         UPDATE deliveries d
            SET attempts = d.attempts + 1, status = o.status, last_attempt_at = o.attempted_at,
                next_attempt_at = coalesce(o.next_attempt_at, d.next_attempt_at),
                completed_at = CASE WHEN o.status = 'pending' THEN NULL ELSE now() END
           FROM o WHERE d.id = o.delivery_id
         RETURNING d.endpoint_id, d.ordering_key, d.attempts`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.result.attemptedAt),
          rows.map((r) => (r.result.ok ? 'succeeded' : 'failed')),
          rows.map((r) => Math.round(r.result.durationMs)),
          rows.map((r) => r.result.responseStatus),
          rows.map((r) => r.result.responseBody),
          rows.map((r) => r.result.error),
          rows.map((r) => r.status),
          rows.map((r) => r.next),
        ],
      );
      // A first attempt made lets the next delivery of its document to the same endpoint go.
      const chains = new Map<string, [string, string]>();
      for (const row of updated) {
        if (row.attempts === 1 && row.endpoint_id && row.ordering_key)
          chains.set(`${row.endpoint_id} ${row.ordering_key}`, [row.endpoint_id, row.ordering_key]);
      }
      if (chains.size > 0) {
        await manager.query(
          `UPDATE deliveries d SET waiting = false
             FROM unnest($1::uuid[], $2::text[]) AS c(endpoint_id, ordering_key)
            WHERE d.waiting AND d.endpoint_id = c.endpoint_id AND d.ordering_key = c.ordering_key AND NOT ${mustWait('d')}`,
          [[...chains.values()].map(([endpoint]) => endpoint), [...chains.values()].map(([, key]) => key)],
        );
      }
      for (const sender of this.senders.values()) {
        const own = outcomes.filter((o) => o.delivery.channel === sender.channel);
        if (own.length && sender.settle) await sender.settle(manager, own);
      }
    });
  }
}
