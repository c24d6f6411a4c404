import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { DELIVERY_SENDERS, type AttemptResult, type ClaimedDelivery, type DeliverySender, type Outcome } from './delivery-sender.js';
import type { Channel } from './delivery.entity.js';
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
/** A lease is a channel's longest attempt and this: time to record the attempt, and for a busy process. */
const LEASE_MARGIN_MS = 10_000;
/** A delivery not sent this long after it was claimed (the process stalled) is given back instead: its lease may not last. */
const SEND_WITHIN_MS = LEASE_MARGIN_MS / 2;
/** The error of an attempt whose worker stopped before recording it. */
const LOST_ATTEMPT = 'the worker sending it stopped before its outcome was known: the receiver may have it';

/**
 * The delivery core: claims due deliveries from PostgreSQL in batches (FOR UPDATE SKIP LOCKED, so any number of
 * workers share the work and none takes a delivery another holds), sends them concurrently through their channel's
 * sender, and records the attempts in bulk. PostgreSQL is the only record: a claim moves `next_attempt_at` forward by a
 * lease, so a delivery whose worker died is due again when the lease ends, and nothing depends on Redis.
 *
 * Each channel is claimed up to its own room (its sender's concurrency) and leased for longer than its longest attempt,
 * which the engine enforces by cutting an overrunning attempt off (recorded `unknown`). A claim is named (`claim_id`):
 * a delivery is sent only soon after its claim, its attempt is recorded on the delivery only while the claim still
 * holds it, and a claim that finds an earlier claim never recorded (its worker died) records that attempt as `unknown`,
 * so the possible duplicate shows in the delivery's attempts.
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
  /** Each channel's lease, in milliseconds. */
  private readonly leases = new Map<Channel, number>();
  private running = false;
  private loop?: Promise<void>;
  /** Attempts per channel sent or being recorded; a cut-off attempt counts until its sender lets go of it too. */
  private readonly inFlight = new Map<Channel, number>();
  /**
   * Deliveries this engine has claimed and not yet recorded. A stalled process (a busy machine) can outlive its lease;
   * it then must not claim its own deliveries a second time, and send them twice, while their first attempt is still
   * being sent or recorded here.
   */
  private readonly held = new Set<string>();
  private finished: Array<Outcome & { done: () => void }> = [];
  private recording?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(DELIVERY_SENDERS) senders: DeliverySender[],
    listener: PgListener,
  ) {
    this.senders = new Map(senders.map((sender) => [sender.channel, sender]));
    for (const sender of senders) {
      // Long enough for an attempt to be cut off and recorded; a delivery held longer belonged to a worker that died.
      this.leases.set(sender.channel, sender.attemptLimitMs + LEASE_MARGIN_MS);
      this.inFlight.set(sender.channel, 0);
    }
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
    while (this.busy() > 0 || this.recording) await (this.recording ?? new Promise((resolve) => setTimeout(resolve, 20)));
  }

  private busy(): number {
    let total = 0;
    for (const count of this.inFlight.values()) total += count;
    return total;
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
        const rooms = new Map<Channel, number>();
        for (const sender of this.senders.values()) {
          const room = Math.min(sender.concurrency - this.inFlight.get(sender.channel)!, CLAIM_BATCH);
          if (room > 0) rooms.set(sender.channel, room);
        }
        let wanted = 0;
        for (const room of rooms.values()) wanted += room;
        const claimedAt = performance.now();
        const claimed = wanted > 0 ? await this.claim(rooms) : [];
        // Claimed too long ago (a stalled process, a slow claim): the lease may end before the attempts do.
        if (performance.now() - claimedAt > SEND_WITHIN_MS) await this.giveBack(claimed);
        else for (const delivery of claimed) this.dispatch(delivery);
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

  /** Claims due deliveries, up to each channel's room, and loads what their senders need, in one transaction. */
  async claim(rooms: Map<Channel, number>): Promise<ClaimedDelivery[]> {
    const claim = randomUUID();
    const rows = await this.db.transaction(async (manager) => {
      // The due deliveries are read in their index's order, and the scan stops at the limit. A queue table's
      // statistics are always behind: believing few deliveries due, the planner would read every due one and sort
      // them, which took half a second per claim with 50,000 deliveries queued.
      await manager.query(`SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`);
      return this.selectDue(manager, rooms, claim);
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
      claim,
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

  /**
   * Moves the lease of due deliveries forward (up to each channel's room, by the channel's lease) under this claim, and
   * reads them with their endpoint and event. An earlier claim still on a delivery was never recorded: its attempt is
   * recorded as `unknown`, not counted in the schedule (the attempt made now is).
   */
  private selectDue(manager: EntityManager, rooms: Map<Channel, number>, claim: string): Promise<Array<Record<string, unknown>>> {
    const params: unknown[] = [claim, [...this.held], LOST_ATTEMPT];
    const perChannel = [...rooms].map(([channel, room], index) => {
      params.push(channel, room, this.leases.get(channel));
      const [name, limit, lease] = [params.length - 2, params.length - 1, params.length];
      // One ordered scan of the channel's due index per channel, stopping at its room.
      return `due_${index} AS (SELECT d.id, d.claim_id AS lost_claim, d.claimed_at AS lost_at, $${lease}::int AS lease_ms FROM deliveries d
                 LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
                WHERE d.status = 'pending' AND NOT d.waiting AND d.next_attempt_at <= now() AND d.channel = $${name}
                  AND NOT (d.id = ANY($2::uuid[]))
                  AND (d.endpoint_id IS NULL OR e.enabled)
                ORDER BY d.next_attempt_at
                LIMIT $${limit}
                FOR UPDATE OF d SKIP LOCKED)`;
    });
    return manager.query(
      `WITH ${perChannel.join(', ')}, due AS (
         ${perChannel.map((_, index) => `SELECT * FROM due_${index}`).join(' UNION ALL ')}
       ), lost AS (
         INSERT INTO delivery_attempts (delivery_id, attempted_at, outcome, duration_ms, error)
         SELECT id, coalesce(lost_at, now()), 'unknown', 0, $3 FROM due WHERE lost_claim IS NOT NULL
       ), claimed AS (
         UPDATE deliveries d SET next_attempt_at = now() + make_interval(secs => due.lease_ms / 1000.0), claim_id = $1, claimed_at = now()
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
      params,
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
      `SELECT min((SELECT min(next_attempt_at) FROM deliveries
                    WHERE channel = c AND status = 'pending' AND NOT waiting AND next_attempt_at > now())) AS at
         FROM unnest($1::text[]) AS c`,
      [[...this.senders.keys()]],
    );
    return at ? Math.min(POLL_MS, (at as Date).getTime() - Date.now() + 5) : POLL_MS;
  }

  /** Sends a claimed delivery, cut off at its channel's attempt limit. */
  private dispatch(delivery: ClaimedDelivery): void {
    const channel = delivery.channel;
    this.inFlight.set(channel, this.inFlight.get(channel)! + 1);
    this.held.add(delivery.id);
    const sender = this.senders.get(channel)!;
    const attemptedAt = new Date();
    const failure = (error: string, unknown = false): AttemptResult => ({
      ok: false,
      attemptedAt,
      durationMs: Date.now() - attemptedAt.getTime(),
      responseStatus: null,
      responseBody: null,
      error,
      unknown,
    });
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const cutOff = new Promise<AttemptResult>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve(failure(`cut off after ${sender.attemptLimitMs} ms: the receiver may have it`, true));
      }, sender.attemptLimitMs);
    });
    // Counted in flight until both the attempt is recorded and the sender has let go of it.
    let holds = 2;
    const letGo = () => {
      if (--holds === 0) this.inFlight.set(channel, this.inFlight.get(channel)! - 1);
    };
    const sent = sender.send(delivery, abort.signal).catch((error: Error) => failure(error.message));
    void sent.finally(() => {
      clearTimeout(timer);
      letGo();
    });
    void Promise.race([sent, cutOff]).then((result) => {
      this.finished.push({ delivery, result, done: letGo });
      this.record();
    });
  }

  /** Gives claimed deliveries back unsent (due at once), those this claim still holds; others find them at the lease's end. */
  private async giveBack(claimed: ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return;
    this.logger.warn(`${claimed.length} deliveries claimed more than ${SEND_WITHIN_MS} ms ago given back unsent`);
    await this.db.query(`UPDATE deliveries SET next_attempt_at = now(), claim_id = NULL WHERE id = ANY($1::uuid[]) AND claim_id = $2`, [
      claimed.map((delivery) => delivery.id),
      claimed[0].claim,
    ]);
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
        for (const { delivery, done } of batch) {
          this.held.delete(delivery.id);
          done();
        }
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
           SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::uuid[])
             AS o(delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error, status, next_attempt_at, claim_id)
            WHERE EXISTS (SELECT 1 FROM deliveries d WHERE d.id = delivery_id)
         ), attempts AS (
           -- Every attempt made is recorded, even on a delivery another claim holds now: a possible duplicate shows.
           INSERT INTO delivery_attempts (delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error)
           SELECT delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error FROM o
         )
         UPDATE deliveries d
            SET attempts = d.attempts + 1, status = o.status, last_attempt_at = o.attempted_at,
                next_attempt_at = coalesce(o.next_attempt_at, d.next_attempt_at),
                completed_at = CASE WHEN o.status = 'pending' THEN NULL ELSE now() END, claim_id = NULL
           FROM o WHERE d.id = o.delivery_id AND d.claim_id = o.claim_id
         RETURNING d.endpoint_id, d.ordering_key, d.attempts`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.result.attemptedAt),
          rows.map((r) => (r.result.ok ? 'succeeded' : r.result.unknown ? 'unknown' : 'failed')),
          rows.map((r) => Math.round(r.result.durationMs)),
          rows.map((r) => r.result.responseStatus),
          rows.map((r) => r.result.responseBody),
          rows.map((r) => r.result.error),
          rows.map((r) => r.status),
          rows.map((r) => r.next),
          outcomes.map((o) => o.delivery.claim),
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
