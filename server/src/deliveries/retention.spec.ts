import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { Fixtures } from '../../test/fixtures.js';
import { Receiver, waitFor } from '../../test/webhook-receiver.js';
import { ManualClock } from '../common/clock/drivers/manual.driver.js';
import { RequestLogsRepository } from '../request-logs/request-logs.repository.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { RETENTION_BATCH, RETENTION_EVERY_MS, Retention } from './retention.js';

/**
 * Retention on real rows, backdated: the worker's sweep removes, batch after batch, what is past its period (30 days
 * for a delivery that succeeded, 90 for one that failed and for events) and keeps the rest.
 */
describe('retention of deliveries, attempts and events', () => {
  let api: TestApi;
  let tenant: Tenant;
  let receiver: Receiver & { url: string };
  const endpoints: { enabled: string; disabled: string } = { enabled: '', disabled: '' };

  beforeAll(async () => {
    api = await startApi();
    tenant = await createTenant(api);
    receiver = await Receiver.start();
    for (const which of ['enabled', 'disabled'] as const) {
      const { body } = await api.http.post('/api/v1/webhook-endpoints').set(tenant.auth).send({ url: receiver.url }).expect(201);
      endpoints[which] = body.id;
    }
    await api.http.patch(`/api/v1/webhook-endpoints/${endpoints.disabled}`).set(tenant.auth).send({ enabled: false }).expect(200);
  });

  afterAll(async () => {
    await receiver.close();
    await api.close();
  });

  /** An event `name` recorded `days` ago (fanned out unless said otherwise). */
  async function event(name: string, days: number, dispatched = true): Promise<string> {
    const [{ id }] = await api.db.query(
      `INSERT INTO events (company_id, type, payload, created_at, dispatched_at)
       VALUES ($1, 'document.updated', jsonb_build_object('id', $2::text), now() - make_interval(days => $3),
               CASE WHEN $4 THEN now() - make_interval(days => $3) END)
       RETURNING id`,
      [tenant.companyId, name, days, dispatched],
    );
    return id;
  }

  /** A webhook delivery of `eventId` created `createdDays` ago, in `status` since `completedDays` ago, with one attempt. */
  async function webhook(eventId: string, status: string, createdDays: number, completedDays: number | null, endpoint = endpoints.enabled): Promise<string> {
    const [{ id }] = await api.db.query(
      `INSERT INTO deliveries (channel, endpoint_id, event_id, status, attempts, created_at, completed_at)
       VALUES ('webhook', $1, $2, $3, 1, now() - make_interval(days => $4), now() - make_interval(days => $5)) RETURNING id`,
      [endpoint, eventId, status, createdDays, completedDays],
    );
    await api.db.query(
      `INSERT INTO delivery_attempts (delivery_id, attempted_at, outcome, duration_ms) VALUES ($1, now() - make_interval(days => $2), 'failed', 10)`,
      [id, createdDays],
    );
    return id;
  }

  /** E-mails that succeeded `days` ago. */
  async function mails(count: number, days: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await api.db.query(
      `INSERT INTO deliveries (channel, message, status, attempts, created_at, completed_at)
       SELECT 'mail', '{"to": ["a@cliente.test"], "subject": "Fattura", "text": "In allegato."}', 'succeeded', 1,
              now() - make_interval(days => $2), now() - make_interval(days => $2)
         FROM generate_series(1, $1) RETURNING id`,
      [count, days],
    );
    return rows.map((row) => row.id);
  }

  const exists = async (table: 'deliveries' | 'events', id: string) => (await api.db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).length === 1;

  it('removes what is past its period, in batches, and keeps the rest', async () => {
    const events = {
      delivered40: await event('delivered 40 days ago', 41),
      delivered20: await event('delivered 20 days ago', 21),
      failed60: await event('failed 60 days ago', 65),
      failed100: await event('failed 100 days ago', 105),
      replayed: await event('recorded 120 days ago, replayed last week', 120),
      bare95: await event('no endpoint, 95 days ago', 95),
      bare80: await event('no endpoint, 80 days ago', 80),
      undispatched: await event('never fanned out, 95 days ago', 95, false),
      pending: await event('pending 100 days', 100),
    };
    const deliveries = {
      delivered40: await webhook(events.delivered40, 'succeeded', 41, 40),
      delivered20: await webhook(events.delivered20, 'succeeded', 21, 20),
      failed60: await webhook(events.failed60, 'failed', 65, 60),
      failed100: await webhook(events.failed100, 'failed', 105, 100),
      replayed: await webhook(events.replayed, 'succeeded', 120, 5),
      disabled100: await webhook(events.pending, 'pending', 100, null, endpoints.disabled),
      enabled100: await webhook(events.pending, 'pending', 100, null, endpoints.enabled),
    };
    const oldMails = await mails(RETENTION_BATCH * 2 + 100, 31);
    const [recentMail] = await mails(1, 29);
    const [sharedMail] = await mails(1, 200);
    const document = await new Fixtures(api.db, tenant.companyId).document();
    await api.db.query(
      `INSERT INTO invoice_shares (company_id, document_id, delivery_id, recipients, reply_to, subject) VALUES ($1, $2, $3, '{a@cliente.test}', 'b@rossi.test', 'Fattura')`,
      [tenant.companyId, document.id, sharedMail],
    );

    const retention = new Retention(new DeliveriesRepository(api.db), new RequestLogsRepository(api.db), api.config, new ManualClock());
    expect(await retention.sweep()).toEqual({ deliveries: oldMails.length + 3, events: 2, requestLogs: 0 });

    const kept = async (table: 'deliveries' | 'events', ids: Record<string, string>) => {
      const result: Record<string, boolean> = {};
      for (const [name, id] of Object.entries(ids)) result[name] = await exists(table, id);
      return result;
    };
    expect(await kept('deliveries', deliveries)).toEqual({
      delivered40: false,
      delivered20: true,
      failed60: true,
      failed100: false,
      replayed: true,
      disabled100: false,
      enabled100: true,
    });
    expect(await kept('events', events)).toEqual({
      // Its delivery is gone, but the event is within its own 90 days.
      delivered40: true,
      delivered20: true,
      failed60: true,
      failed100: false,
      // Kept while a delivery of it is: it can be replayed again.
      replayed: true,
      bare95: false,
      bare80: true,
      undispatched: true,
      pending: true,
    });
    expect(await kept('deliveries', { recentMail, sharedMail, oldMail: oldMails[0] })).toEqual({ recentMail: true, sharedMail: true, oldMail: false });
    // Attempts went with their deliveries.
    const [{ orphans }] = await api.db.query(
      `SELECT count(*)::int AS orphans FROM delivery_attempts a WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.id = a.delivery_id)`,
    );
    const [{ attempts }] = await api.db.query(`SELECT count(*)::int AS attempts FROM delivery_attempts`);
    expect({ orphans, attempts }).toEqual({ orphans: 0, attempts: 4 });

    // Nothing more is due: a second sweep removes nothing.
    expect(await retention.sweep()).toEqual({ deliveries: 0, events: 0, requestLogs: 0 });
  });

  it('keeps a delivery replayed while the sweep looked at it', async () => {
    const eventId = await event('replayed during the sweep', 100);
    const delivery = await webhook(eventId, 'succeeded', 100, 40);
    // The replay runs first and holds its row; the sweep's delete waits for it and then finds the row no longer old.
    const replay = api.db.createQueryRunner();
    await replay.startTransaction();
    await replay.query(`UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), completed_at = NULL WHERE id = $1`, [delivery]);
    const sweep = new Retention(new DeliveriesRepository(api.db), new RequestLogsRepository(api.db), api.config, new ManualClock()).sweep();
    await waitFor(
      async () => (await api.db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).length > 0,
      'the sweep to wait for the replay',
    );
    await replay.commitTransaction();
    await replay.release();
    expect(await sweep).toEqual({ deliveries: 0, events: 0, requestLogs: 0 });
    expect(await exists('deliveries', delivery)).toBe(true);
    expect(await exists('events', eventId)).toBe(true);
  });

  it('runs in the worker every RETENTION_EVERY_MS of its clock, moved here instead of waited for', async () => {
    const clock = new ManualClock();
    // Sent five minutes short of its 30 days: kept by the sweep at start, past its period at the next one.
    const [{ id }] = await api.db.query(
      `INSERT INTO deliveries (channel, message, status, attempts, created_at, completed_at)
       VALUES ('mail', '{"to": ["a@cliente.test"], "subject": "Fattura", "text": "In allegato."}', 'succeeded', 1,
               now() - interval '30 days' + interval '5 minutes', now() - interval '30 days' + interval '5 minutes') RETURNING id`,
    );
    const [old] = await mails(1, 31);
    const retention = new Retention(new DeliveriesRepository(api.db), new RequestLogsRepository(api.db), api.config, clock);
    retention.onApplicationBootstrap();
    try {
      await waitFor(async () => !(await exists('deliveries', old)), 'the sweep at start');
      await waitFor(() => clock.pending === 1, 'the loop asleep after its sweep');
      await clock.advance(RETENTION_EVERY_MS - 1000);
      expect(await exists('deliveries', id)).toBe(true);
      await clock.advance(1000);
      await waitFor(async () => !(await exists('deliveries', id)), 'the second sweep');
    } finally {
      await retention.onApplicationShutdown();
    }
  });
});
