import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from '../../test/database.js';
import { waitFor } from '../../test/webhook-receiver.js';
import { PgListener } from '../common/database/pg-listener.js';
import { createDataSource } from '../entities.js';
import { loadConfig } from '../config/config.js';
import { DeliveryEngine } from './delivery-engine.js';
import type { AttemptResult, DeliverySender } from './delivery-sender.js';

/**
 * The engine's own bound on an attempt, whatever the channel's sender does: a channel (here one whose sender never
 * answers until told to) is cut off at its `attemptLimitMs`, on a real database.
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
      attemptLimitMs: 300,
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
    const engine = new DeliveryEngine(db, [sender], new PgListener(loadConfig({ ...process.env, DATABASE_URL: database.url })));
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
      expect(Math.round(Number((await row(first.id)).lease_ms))).toBe(10_300);

      await waitFor(async () => (await row(first.id)).attempts === 1, 'the cut-off attempt recorded');
      expect(signals[0].aborted).toBe(true);
      const attempts = await db.query(`SELECT outcome, error FROM delivery_attempts WHERE delivery_id = $1`, [first.id]);
      expect(attempts).toEqual([{ outcome: 'unknown', error: 'cut off after 300 ms: the receiver may have it' }]);
      expect(await row(first.id)).toMatchObject({ status: 'pending', attempts: 1, claim_id: null });
      // The sender still holds the first message: the channel has no room for the second.
      expect(await row(second.id)).toMatchObject({ status: 'pending', attempts: 0, claim_id: null });

      letGo();
      await waitFor(async () => (await row(second.id)).status === 'succeeded', 'the second e-mail once the sender let go of the first');
    } finally {
      letGo();
      await engine.onApplicationShutdown();
    }
  });
});
