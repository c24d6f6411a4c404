import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from '../../test/database.js';
import { waitFor } from '../../test/webhook-receiver.js';
import { ManualClock } from '../common/clock/drivers/manual.driver.js';
import { PgListener } from '../common/database/pg-listener.js';
import { createDataSource } from '../entities.js';
import { loadConfig } from '../config/config.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryEngine } from './delivery-engine.js';
import type { AttemptResult, DeliverySender } from './delivery-sender.js';

/**
 * The engine's own bound on an attempt, whatever the channel's sender does: a channel (here one whose sender never
 * answers until told to) is cut off at its `attemptLimitMs`, on a real database. Time is moved, not waited for.
 */
describe('the delivery engine and a sender that overruns its limit', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url);
    await db.initialize();
  });

  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('leases for longer than the limit, cuts the attempt off as UNKNOWN, and keeps it in flight until the sender lets go', async () => {
    let letGo!: () => void;
    const stalled = new Promise<void>((resolve) => (letGo = resolve));
    const signals: AbortSignal[] = [];
    const sender: DeliverySender = {
      channel: 'mail',
      retrySchedule: [60_000],
      attemptLimitMs: 30_000,
      concurrency: 1,
      async send(_delivery, signal): Promise<AttemptResult> {
        signals.push(signal);
        await stalled;
        return { ok: true, attemptedAt: new Date(), durationMs: 1, responseStatus: 250, responseBody: '250 OK', error: null };
      },
    };
    const [first, second]: Array<{ id: string }> = await db.query(
      `INSERT INTO deliveries (channel, message, created_at)
       SELECT 'mail', '{"to": ["a@cliente.test"], "subject": "Fattura", "text": "In allegato."}', now() - make_interval(secs => i)
         FROM generate_series(2, 1, -1) AS i RETURNING id`,
    );
    await db.query(`UPDATE deliveries SET next_attempt_at = created_at`);
    const clock = new ManualClock();
    const engine = new DeliveryEngine(
      new DeliveriesRepository(db),
      [sender],
      clock,
      new PgListener(loadConfig({ ...process.env, DATABASE_URL: database.url })),
    );
    const row = async (id: string) =>
      (
        await db.query(`SELECT status, attempts, claim_id, extract(epoch FROM next_attempt_at - claimed_at) * 1000 AS lease_ms FROM deliveries WHERE id = $1`, [
          id,
        ])
      )[0];
    engine.onApplicationBootstrap();
    try {
      await waitFor(() => signals.length === 1, 'the first attempt');
      // Leased for the channel's longest attempt and a margin.
      expect(Math.round(Number((await row(first.id)).lease_ms))).toBe(40_000);

      // A second short of the limit the attempt still runs (the clock runs on with real time too); at the limit it is cut off.
      await clock.advance(29_000);
      expect(signals[0].aborted).toBe(false);
      await clock.advance(1000);
      await waitFor(async () => (await row(first.id)).attempts === 1, 'the cut-off attempt recorded');
      expect(signals[0].aborted).toBe(true);
      const attempts = await db.query(`SELECT outcome, error FROM delivery_attempts WHERE delivery_id = $1`, [first.id]);
      expect(attempts).toEqual([{ outcome: 'unknown', error: 'cut off after 30000 ms: the receiver may have it' }]);
      expect(await row(first.id)).toMatchObject({ status: 'pending', attempts: 1, claim_id: null });
      // The sender still holds the first message: the channel has no room for the second.
      expect(await row(second.id)).toMatchObject({ status: 'pending', attempts: 0, claim_id: null });

      letGo();
      await waitFor(async () => (await row(second.id)).status === 'succeeded', 'the second e-mail once the sender let go of the first');
      // The cut-off one is retried on its schedule: a minute later on the clock, not before.
      expect((await row(first.id)).status).toBe('pending');
      await clock.advance(70_000);
      await waitFor(async () => (await row(first.id)).status === 'succeeded', 'the retry of the cut-off e-mail');
    } finally {
      letGo();
      await engine.onApplicationShutdown();
    }
  });

  it('takes over a delivery whose worker died once its lease ends on the clock, recording the lost attempt as UNKNOWN', async () => {
    const sent: string[] = [];
    const sender: DeliverySender = {
      channel: 'mail',
      retrySchedule: [60_000],
      attemptLimitMs: 30_000,
      concurrency: 4,
      async send(delivery): Promise<AttemptResult> {
        sent.push(delivery.id);
        return { ok: true, attemptedAt: new Date(), durationMs: 1, responseStatus: 250, responseBody: '250 OK', error: null };
      },
    };
    const clock = new ManualClock();
    // Claimed by a worker that died at once: its lease (the limit and a 10 s margin) runs from now on the clock.
    const [held]: Array<{ id: string }> = await db.query(
      `INSERT INTO deliveries (channel, message, claim_id, claimed_at, next_attempt_at)
       VALUES ('mail', '{"to": ["b@cliente.test"], "subject": "Fattura", "text": "In allegato."}', gen_random_uuid(), $1, $1::timestamptz + interval '40 seconds')
       RETURNING id`,
      [clock.now()],
    );
    const engine = new DeliveryEngine(
      new DeliveriesRepository(db),
      [sender],
      clock,
      new PgListener(loadConfig({ ...process.env, DATABASE_URL: database.url })),
    );
    engine.onApplicationBootstrap();
    try {
      await clock.advance(38_000);
      expect(await engine.claim(new Map([['mail', { room: 4, leaseMs: 40_000 }]]))).toEqual([]);
      expect(sent).toEqual([]);
      await clock.advance(2500);
      await waitFor(async () => (await db.query(`SELECT status FROM deliveries WHERE id = $1`, [held.id]))[0].status === 'succeeded', 'the take-over');
      expect(sent).toEqual([held.id]);
      const attempts = await db.query(`SELECT outcome FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempted_at, outcome DESC`, [held.id]);
      expect(attempts.map((a: { outcome: string }) => a.outcome).sort()).toEqual(['succeeded', 'unknown']);
    } finally {
      await engine.onApplicationShutdown();
    }
  });
});
