import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { byId } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { groupBy } from '../common/database/group-by.js';
import { WORK_CHANNELS } from '../common/database/work-channels.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import type { Environment } from '../config/config.js';
import { DeliveryAttempt } from './delivery-attempt.entity.js';
import { webhookDeliveryList } from './delivery-list.js';
import { mustWait } from './delivery-order.js';
import { Delivery, type Channel, type MailMessage, type WebhookMessage } from './delivery.entity.js';

/** Which event types an endpoint receives, by the permission that reads them (webhooks/event-permissions.ts). */
export interface EventGrants {
  types: string[];
  permissions: string[];
}

/** One channel's share of a claim: how many deliveries it has room for, and for how long it leases them. */
export interface ChannelClaim {
  room: number;
  leaseMs: number;
}

/** A finished attempt, as the engine records it. */
export interface AttemptRow {
  deliveryId: string;
  claim: string;
  attemptedAt: Date;
  outcome: 'succeeded' | 'failed' | 'unknown';
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** The delivery's state after it: pending (with its next attempt's time), succeeded or failed. */
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date | null;
}

/**
 * The deliveries (`d`, joined with their endpoint `e`) the engine claims once they are due: pending, not waiting for
 * an earlier one, their endpoint (if any) enabled. The status command's overdue count reads the same condition.
 */
const CLAIMABLE = `d.status = 'pending' AND NOT d.waiting AND (d.endpoint_id IS NULL OR e.enabled)`;

/** What an operator watches of the outbound pipeline (the status command). */
export interface DeliveryBacklog {
  /** Events not yet fanned out into deliveries, and when the oldest of them was recorded. */
  events: { waiting: number; oldest: Date | null };
  /** Per channel that has any: deliveries pending, pending and overdue, and failed for good since the time asked. */
  channels: Array<{ channel: Channel; pending: number; overdue: number; failed: number }>;
}

/** A delivery with its event and attempts, as the presenter needs it. */
export interface LoadedDelivery {
  delivery: Delivery;
  event: DomainEvent | null;
  attempts: DeliveryAttempt[];
}

/**
 * All the SQL of the outbound pipeline (`deliveries`, `delivery_attempts` and the `events` outbox as the fan-out reads
 * it): the fan-out, the engine's claim and recording, enqueueing, replays, the reads that report a delivery's state,
 * and retention's deletes. Plain TypeORM, so the CLI uses it without booting Nest. Times that decide what is due and
 * when a lease ends are passed in (the worker's clock port), never read from the database's `now()`.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Fans out up to `batch` events, oldest first, claimed with SKIP LOCKED (any number of workers side by side): one
   * webhook delivery per event and endpoint subscribed to it (the enabled endpoints, in `environment`, of every
   * integrator granted the event's company, enabled for its type, whose recorded permissions read it), and the events marked
   * dispatched, in one statement. A delivery behind an earlier event of its document (undispatched, in this batch or
   * not, or whose delivery to the endpoint has not been attempted) is made waiting (delivery-order.ts). Returns how
   * many events it took.
   */
  @GenerateSql({ params: [200, 'production', { types: ['document.updated', 'document.deleted'], permissions: ['documents:read', 'documents:read'] }] })
  async fanOut(batch: number, environment: Environment, grants: EventGrants): Promise<number> {
    const [, count]: [unknown, number] = await this.db.query(
      `WITH ev AS (
         SELECT id, company_id, type, payload->>'id' AS subject, created_at FROM events
          WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
       ), fresh AS (
         SELECT e.id AS endpoint_id, ev.id AS event_id, ev.subject AS ordering_key, ev.created_at AS ordering_at
           FROM ev
           JOIN company_grants g ON g.company_id = ev.company_id
           JOIN webhook_endpoints e ON e.integrator_id = g.integrator_id AND e.environment = $2 AND e.enabled
                                  AND ('*' = ANY(e.enabled_events) OR ev.type = ANY(e.enabled_events))
          WHERE EXISTS (SELECT 1 FROM unnest($3::text[], $4::text[]) AS r(type, permission) WHERE r.type = ev.type AND r.permission = ANY(e.permissions))
       ), fanned AS (
         INSERT INTO deliveries (channel, endpoint_id, event_id, ordering_key, ordering_at, waiting)
         SELECT 'webhook', f.endpoint_id, f.event_id, f.ordering_key, f.ordering_at, ${mustWait('f')} FROM fresh f
         ON CONFLICT (endpoint_id, event_id) DO NOTHING
       )
       UPDATE events SET dispatched_at = now() WHERE id IN (SELECT id FROM ev)`,
      [batch, environment, grants.types, grants.permissions],
    );
    return count;
  }

  /**
   * Claims due deliveries under `claim` at `now`, up to each channel's room, moving each one's lease forward, and reads
   * them with their endpoint and event, in one transaction. An earlier claim still on a delivery was never recorded
   * (its worker died): that attempt is recorded `unknown` with `lostError`, not counted in the schedule.
   */
  @GenerateSql({
    params: [
      new Map([
        ['webhook', { room: 64, leaseMs: 26_000 }],
        ['mail', { room: 5, leaseMs: 40_000 }],
      ]),
      [DummyValue.UUID],
      DummyValue.UUID,
      DummyValue.TIMESTAMP,
      'the worker stopped',
    ],
  })
  async claimDue(channels: Map<Channel, ChannelClaim>, held: string[], claim: string, now: Date, lostError: string): Promise<Array<Record<string, unknown>>> {
    return this.db.transaction(async (manager) => {
      // The due deliveries are read in their index's order, and the scan stops at the limit. A queue table's
      // statistics are always behind: believing few deliveries due, the planner would read every due one and sort
      // them, which took half a second per claim with 50,000 deliveries queued.
      await manager.query(`SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`);
      const params: unknown[] = [claim, held, lostError, now];
      const perChannel = [...channels].map(([channel, { room, leaseMs }], index) => {
        params.push(channel, room, leaseMs);
        const [name, limit, lease] = [params.length - 2, params.length - 1, params.length];
        // One ordered scan of the channel's due index per channel, stopping at its room.
        return `due_${index} AS (SELECT d.id, d.claim_id AS lost_claim, d.claimed_at AS lost_at, $${lease}::int AS lease_ms FROM deliveries d
                   LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
                  WHERE ${CLAIMABLE} AND d.next_attempt_at <= $4 AND d.channel = $${name}
                    AND NOT (d.id = ANY($2::uuid[]))
                  ORDER BY d.next_attempt_at
                  LIMIT $${limit}
                  FOR UPDATE OF d SKIP LOCKED)`;
      });
      return manager.query(
        `WITH ${perChannel.join(', ')}, due AS (
           ${perChannel.map((_, index) => `SELECT * FROM due_${index}`).join(' UNION ALL ')}
         ), lost AS (
           INSERT INTO delivery_attempts (delivery_id, attempted_at, outcome, duration_ms, error)
           SELECT id, coalesce(lost_at, $4), 'unknown', 0, $3 FROM due WHERE lost_claim IS NOT NULL
         ), claimed AS (
           UPDATE deliveries d SET next_attempt_at = $4::timestamptz + make_interval(secs => due.lease_ms / 1000.0), claim_id = $1, claimed_at = $4
             FROM due WHERE d.id = due.id
           RETURNING d.id, d.channel, d.attempts, d.message, d.endpoint_id, d.event_id
         )
         SELECT c.id, c.channel, c.attempts, c.message,
                e.id AS endpoint_id, e.integrator_id, e.url, e.permissions, e.secret, e.previous_secret, e.previous_secret_expires_at,
                e.failing_since, e.updated_at,
                ev.id AS event_id, ev.company_id, ev.type, ev.api_version, ev.created_at AS event_created_at,
                -- An event goes to many endpoints: its payload is sent (and parsed) once per claim.
                CASE WHEN row_number() OVER (PARTITION BY ev.id) = 1 THEN ev.payload END AS payload
           FROM claimed c
           LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id
           LEFT JOIN events ev ON ev.id = c.event_id`,
        params,
      );
    });
  }

  /**
   * The outbox's backlog and, per channel, the deliveries pending, those overdue (due before `overdueBefore` and
   * claimable: not waiting for an earlier one, their endpoint enabled; a claimed delivery's next attempt is its lease's
   * end, so a worker's sends in flight are not overdue), and those failed for good since `failedSince`. Each count
   * reads a partial index (the due, the waiting, the completed deliveries), never the whole table.
   */
  @GenerateSql({ params: [DummyValue.TIMESTAMP, DummyValue.TIMESTAMP] })
  async backlog(overdueBefore: Date, failedSince: Date): Promise<DeliveryBacklog> {
    type Counts = Array<{ channel: Channel; count: number; overdue?: number }>;
    // One after the other, so that the SQL snapshot lists them in one order.
    const [events]: Array<DeliveryBacklog['events']> = await this.db.query(
      'SELECT count(*)::int AS waiting, min(created_at) AS oldest FROM events WHERE dispatched_at IS NULL',
    );
    const due: Counts = await this.db.query(
      `SELECT d.channel, count(*)::int AS count,
              count(*) FILTER (WHERE ${CLAIMABLE} AND d.next_attempt_at < $1)::int AS overdue
         FROM deliveries d LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND NOT d.waiting GROUP BY d.channel`,
      [overdueBefore],
    );
    const waiting: Counts = await this.db.query(`SELECT channel, count(*)::int AS count FROM deliveries WHERE waiting GROUP BY channel`);
    const failed: Counts = await this.db.query(
      `SELECT channel, count(*)::int AS count FROM deliveries WHERE status = 'failed' AND completed_at >= $1 GROUP BY channel`,
      [failedSince],
    );
    const of = (rows: Counts, channel: Channel) => rows.find((row) => row.channel === channel);
    const channels = [...new Set([...due, ...waiting, ...failed].map((row) => row.channel))].sort();
    return {
      events,
      channels: channels.map((channel) => ({
        channel,
        pending: (of(due, channel)?.count ?? 0) + (of(waiting, channel)?.count ?? 0),
        overdue: of(due, channel)?.overdue ?? 0,
        failed: of(failed, channel)?.count ?? 0,
      })),
    };
  }

  /** Lets go of the waiting deliveries with no earlier one left to wait for: the first of each document's queue. */
  @GenerateSql()
  async releaseStranded(): Promise<number> {
    const [, count]: [unknown, number] = await this.db.query(
      `UPDATE deliveries d SET waiting = false
        WHERE d.id IN (SELECT DISTINCT ON (endpoint_id, ordering_key) id FROM deliveries WHERE waiting
                        ORDER BY endpoint_id, ordering_key, ordering_at)
          AND d.waiting AND NOT ${mustWait('d')}`,
    );
    return count;
  }

  /** When the next pending delivery of these channels is due after `now`; null when none is. */
  @GenerateSql({ params: [['webhook', 'mail'], DummyValue.TIMESTAMP] })
  async nextDueAt(channels: Channel[], now: Date): Promise<Date | null> {
    const [{ at }]: Array<{ at: Date | null }> = await this.db.query(
      `SELECT min((SELECT min(next_attempt_at) FROM deliveries
                    WHERE channel = c AND status = 'pending' AND NOT waiting AND next_attempt_at > $2)) AS at
         FROM unnest($1::text[]) AS c`,
      [channels, now],
    );
    return at;
  }

  /** Makes claimed deliveries due at `now` again, unsent, those `claim` still holds. */
  @GenerateSql({ params: [[DummyValue.UUID], DummyValue.UUID, DummyValue.TIMESTAMP] })
  async giveBack(ids: string[], claim: string, now: Date): Promise<void> {
    await this.db.query(`UPDATE deliveries SET next_attempt_at = $3, claim_id = NULL WHERE id = ANY($1::uuid[]) AND claim_id = $2`, [ids, claim, now]);
  }

  /**
   * Records finished attempts in one transaction: every attempt is inserted (even on a delivery another claim holds
   * now, so a possible duplicate shows), a delivery's state changes only while the attempt's claim still holds it, and a
   * first attempt lets the next delivery of its document to the same endpoint go. `settle` runs in the same
   * transaction (what follows from the attempts on the channels' side).
   */
  @GenerateSql({
    params: [
      [
        {
          deliveryId: DummyValue.UUID,
          claim: DummyValue.UUID,
          attemptedAt: DummyValue.TIMESTAMP,
          outcome: 'failed',
          durationMs: 12,
          responseStatus: 500,
          responseBody: 'down',
          error: null,
          status: 'pending',
          nextAttemptAt: DummyValue.TIMESTAMP,
        },
      ],
      DummyValue.TIMESTAMP,
      async () => undefined,
    ],
  })
  async recordAttempts(rows: AttemptRow[], now: Date, settle: (manager: EntityManager) => Promise<void>): Promise<void> {
    await this.db.transaction(async (manager) => {
      const [updated]: [Array<{ endpoint_id: string | null; ordering_key: string | null; attempts: number }>] = await manager.query(
        `WITH o AS (
           SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::uuid[])
             AS o(delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error, status, next_attempt_at, claim_id)
            WHERE EXISTS (SELECT 1 FROM deliveries d WHERE d.id = delivery_id)
         ), attempts AS (
           INSERT INTO delivery_attempts (delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error)
           SELECT delivery_id, attempted_at, outcome, duration_ms, response_status, response_body, error FROM o
         )
         UPDATE deliveries d
            SET attempts = d.attempts + 1, status = o.status, last_attempt_at = o.attempted_at,
                next_attempt_at = coalesce(o.next_attempt_at, d.next_attempt_at),
                completed_at = CASE WHEN o.status = 'pending' THEN NULL ELSE $11::timestamptz END, claim_id = NULL
           FROM o WHERE d.id = o.delivery_id AND d.claim_id = o.claim_id
         RETURNING d.endpoint_id, d.ordering_key, d.attempts`,
        [
          rows.map((r) => r.deliveryId),
          rows.map((r) => r.attemptedAt),
          rows.map((r) => r.outcome),
          rows.map((r) => Math.round(r.durationMs)),
          rows.map((r) => r.responseStatus),
          rows.map((r) => r.responseBody),
          rows.map((r) => r.error),
          rows.map((r) => r.status),
          rows.map((r) => r.nextAttemptAt),
          rows.map((r) => r.claim),
          now,
        ],
      );
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
      await settle(manager);
    });
  }

  /** Queues an e-mail, in the caller's transaction; returns the delivery's id. */
  @GenerateSql({ params: [DummyValue.MANAGER, { to: ['a@cliente.example'], subject: 'Fattura', text: 'In allegato.' }] })
  async enqueueMail(manager: EntityManager, message: MailMessage): Promise<string> {
    const repository = manager.getRepository(Delivery);
    return (await repository.save(repository.create({ channel: 'mail', message }))).id;
  }

  /** The type of an event of a company the integrator is granted; null when there is none. */
  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID, DummyValue.UUID] })
  async grantedEventType(integratorId: string, eventId: string): Promise<string | null> {
    const [event]: Array<{ type: string }> = await this.db.query(
      `SELECT ev.type FROM events ev JOIN company_grants g ON g.company_id = ev.company_id AND g.integrator_id = $1 WHERE ev.id = $2`,
      [integratorId, eventId],
    );
    return event?.type ?? null;
  }

  /**
   * Queues an event to an endpoint again as a new schedule of attempts (a delivery that succeeded or failed becomes
   * pending and due at once; a pending one stays as it is); returns the delivery's id, null when the event is not of a
   * company the integrator is granted.
   */
  @GenerateSql({ params: [DummyValue.UUID, DummyValue.INTEGRATOR_ID, DummyValue.UUID] })
  async replayWebhook(endpointId: string, integratorId: string, eventId: string): Promise<string | null> {
    return this.db.transaction(async (manager) => {
      const rows: Array<{ id: string }> = await manager.query(
        `INSERT INTO deliveries (channel, endpoint_id, event_id, ordering_key, ordering_at)
         SELECT 'webhook', $1, ev.id, ev.payload->>'id', ev.created_at
           FROM events ev JOIN company_grants g ON g.company_id = ev.company_id AND g.integrator_id = $2
          WHERE ev.id = $3
         ON CONFLICT (endpoint_id, event_id) DO UPDATE
            SET status = 'pending', attempts = 0, waiting = false, next_attempt_at = now(), completed_at = NULL
          WHERE deliveries.status <> 'pending'
         RETURNING id`,
        [endpointId, integratorId, eventId],
      );
      await manager.query('SELECT pg_notify($1, $2)', [WORK_CHANNELS.deliveries, '']);
      if (rows.length) return rows[0].id;
      return (await manager.getRepository(Delivery).findOneBy({ endpointId, eventId }))?.id ?? null;
    });
  }

  /**
   * Queues a webhook composed up front (a test event) to one endpoint, due at once, unless `limit` of them were queued
   * to it since `since`; returns its id, or when the oldest of those was queued. The endpoint's row is
   * locked meanwhile, so that requests side by side count each other.
   */
  @GenerateSql({
    params: [
      DummyValue.UUID,
      { id: DummyValue.UUID, event: 'webhook.test', created_at: DummyValue.TIMESTAMP.toISOString(), data: {} },
      10,
      DummyValue.TIMESTAMP,
    ],
  })
  async enqueueWebhookMessage(endpointId: string, message: WebhookMessage, limit: number, since: Date): Promise<{ id: string } | { oldest: Date }> {
    return this.db.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE`, [endpointId]);
      const [recent]: Array<{ count: number; oldest: Date | null }> = await manager.query(
        `SELECT count(*)::int AS count, min(created_at) AS oldest FROM deliveries
          WHERE channel = 'webhook' AND endpoint_id = $1 AND event_id IS NULL AND created_at > $2`,
        [endpointId, since],
      );
      if (recent.count >= limit) return { oldest: recent.oldest! };
      const [{ id }]: Array<{ id: string }> = await manager.query(
        `INSERT INTO deliveries (channel, endpoint_id, message) VALUES ('webhook', $1, $2) RETURNING id`,
        [endpointId, message],
      );
      await manager.query('SELECT pg_notify($1, $2)', [WORK_CHANNELS.deliveries, '']);
      return { id };
    });
  }

  /** Makes an endpoint's pending deliveries due at once, in the caller's transaction; those a worker holds keep their lease. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID] })
  async resumeEndpoint(manager: EntityManager, endpointId: string): Promise<void> {
    // A delivery a worker holds keeps its lease: made due now, a second worker would send it too.
    await manager.query(
      `UPDATE deliveries SET next_attempt_at = least(next_attempt_at, now()) WHERE endpoint_id = $1 AND status = 'pending' AND claim_id IS NULL`,
      [endpointId],
    );
    await manager.query('SELECT pg_notify($1, $2)', [WORK_CHANNELS.deliveries, '']);
  }

  /** A page of an endpoint's deliveries. */
  @GenerateSql({ params: [DummyValue.UUID, parseListQuery({}, webhookDeliveryList)] })
  pageOfEndpoint(endpointId: string, query: ListQuery): Promise<{ rows: Delivery[]; cursor: string | null }> {
    const base = this.db.getRepository(Delivery).createQueryBuilder('d').where('d.endpointId = :endpointId', { endpointId });
    return fetchPage(base, webhookDeliveryList, query);
  }

  /** Deliveries by id, each with its event and attempts (oldest first). */
  @GenerateSql({ params: [[DummyValue.UUID]] })
  async load(ids: string[]): Promise<Map<string, LoadedDelivery>> {
    if (ids.length === 0) return new Map();
    return this.withEventsAndAttempts([...(await byId(this.db.getRepository(Delivery), ids)).values()]);
  }

  /** Loaded deliveries, each with its event and attempts (oldest first). */
  @GenerateSql({ params: [[{ id: DummyValue.UUID, eventId: DummyValue.UUID }]] })
  async withEventsAndAttempts(deliveries: Delivery[]): Promise<Map<string, LoadedDelivery>> {
    if (deliveries.length === 0) return new Map();
    const [events, attempts] = await Promise.all([
      byId(
        this.db.getRepository(DomainEvent),
        deliveries.map((d) => d.eventId),
      ),
      this.db
        .getRepository(DeliveryAttempt)
        .createQueryBuilder('a')
        .where('a.deliveryId IN (:...ids)', { ids: deliveries.map((d) => d.id) })
        .orderBy('a.attemptedAt', 'ASC')
        .addOrderBy('a.id', 'ASC')
        .getMany(),
    ]);
    const attemptsOf = groupBy(attempts, (a) => a.deliveryId);
    return new Map(
      deliveries.map((delivery) => [
        delivery.id,
        { delivery, event: delivery.eventId ? (events.get(delivery.eventId) ?? null) : null, attempts: attemptsOf.get(delivery.id) ?? [] },
      ]),
    );
  }

  /**
   * Deletes up to `limit` deliveries completed with `status` before `before` (not a share's e-mail, which holds the
   * share's status), their attempts with them; checks the conditions again on the rows it deletes.
   */
  @GenerateSql({ params: ['succeeded', DummyValue.TIMESTAMP, 500] })
  async deleteCompleted(status: 'succeeded' | 'failed', before: Date, limit: number): Promise<number> {
    const [, deleted]: [unknown, number] = await this.db.query(
      `DELETE FROM deliveries d WHERE d.id IN (
         SELECT id FROM deliveries WHERE status <> 'pending' AND completed_at < $1 AND status = $2
            AND NOT EXISTS (SELECT 1 FROM invoice_shares s WHERE s.delivery_id = deliveries.id) LIMIT $3)
         AND d.status = $2 AND d.completed_at < $1`,
      [before, status, limit],
    );
    return deleted;
  }

  /** Deletes up to `limit` pending deliveries created before `before` for endpoints that are disabled (none held by a worker). */
  @GenerateSql({ params: [DummyValue.TIMESTAMP, 500] })
  async deletePendingOfDisabledEndpoints(before: Date, limit: number): Promise<number> {
    const [, deleted]: [unknown, number] = await this.db.query(
      `DELETE FROM deliveries d WHERE d.id IN (
         SELECT d.id FROM webhook_endpoints e JOIN deliveries d ON d.endpoint_id = e.id
          WHERE NOT e.enabled AND d.status = 'pending' AND d.created_at < $1 AND d.claim_id IS NULL LIMIT $2)
         AND d.status = 'pending' AND d.created_at < $1 AND d.claim_id IS NULL
         AND NOT (SELECT enabled FROM webhook_endpoints e WHERE e.id = d.endpoint_id)`,
      [before, limit],
    );
    return deleted;
  }

  /** Deletes up to `limit` events recorded before `before`, fanned out, with no delivery left (a replay needs the event). */
  @GenerateSql({ params: [DummyValue.TIMESTAMP, 500] })
  async deleteFannedOutEvents(before: Date, limit: number): Promise<number> {
    const [, deleted]: [unknown, number] = await this.db.query(
      `DELETE FROM events ev WHERE ev.id IN (
         SELECT id FROM events WHERE created_at < $1 AND dispatched_at IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = events.id) LIMIT $2)
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = ev.id)`,
      [before, limit],
    );
    return deleted;
  }
}
