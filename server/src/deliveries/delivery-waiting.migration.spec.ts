import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { databaseBefore } from '../../test/database.js';
import { DeliveryWaiting1795453000000 } from '../../../migrations/1795453000000-delivery-waiting.js';

/** The migration that stores which queued webhook deliveries wait for an earlier one of their document. */
describe('migration: deliveries behind an earlier one wait', () => {
  let db: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await databaseBefore(DeliveryWaiting1795453000000));
  });

  afterAll(() => drop());

  it('marks the queued deliveries behind an unattempted one of the same document and endpoint, and no other', async () => {
    const [{ id: company }] = await db.query(
      `INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ('Rossi', 'IT01234567897', 'IT', 'RF01') RETURNING id`,
    );
    const [{ id: integrator }] = await db.query(`INSERT INTO integrators (name) VALUES ('ERP') RETURNING id`);
    const endpoint = async (): Promise<string> =>
      (
        await db.query(
          `INSERT INTO webhook_endpoints (integrator_id, environment, url, secret) VALUES ($1, 'development', 'http://127.0.0.1:1/', 'x') RETURNING id`,
          [integrator],
        )
      )[0].id;
    const [first, second] = [await endpoint(), await endpoint()];
    const delivery = async (name: string, to: string, subject: string, at: string, status = 'pending', attempts = 0) => {
      const [{ id: event }] = await db.query(
        `INSERT INTO events (company_id, type, payload, created_at, relayed_at, dispatched_at) VALUES ($1, 'document.updated', $2, $3, now(), now()) RETURNING id`,
        [company, { id: subject, name }, at],
      );
      await db.query(
        `INSERT INTO deliveries (channel, endpoint_id, event_id, ordering_key, ordering_at, status, attempts, completed_at)
         VALUES ('webhook', $1, $2, $3, $4, $5, $6, CASE WHEN $5 = 'pending' THEN NULL ELSE now() END)`,
        [to, event, subject, at, status, attempts],
      );
    };
    await delivery('a1 sent', first, 'A', '2026-01-01T10:00:00Z', 'succeeded', 1);
    await delivery('a2 queued', first, 'A', '2026-01-01T10:00:01Z');
    await delivery('a3 behind a2', first, 'A', '2026-01-01T10:00:02Z');
    await delivery('a4 behind a2', first, 'A', '2026-01-01T10:00:03Z');
    await delivery('a2 to the other endpoint', second, 'A', '2026-01-01T10:00:01Z');
    await delivery('b1 retrying', first, 'B', '2026-01-01T10:00:00Z', 'pending', 2);
    await delivery('b2 after a retry', first, 'B', '2026-01-01T10:00:01Z');

    await db.runMigrations({ transaction: 'each' });

    const rows: Array<{ name: string; waiting: boolean }> = await db.query(
      `SELECT e.payload->>'name' AS name, d.waiting FROM deliveries d JOIN events e ON e.id = d.event_id ORDER BY e.payload->>'name'`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, row.waiting]))).toEqual({
      'a1 sent': false,
      'a2 queued': false,
      'a2 to the other endpoint': false,
      'a3 behind a2': true,
      'a4 behind a2': true,
      'b1 retrying': false,
      'b2 after a retry': false,
    });
    await expect(db.query(`UPDATE deliveries SET waiting = true WHERE status = 'succeeded'`)).rejects.toThrow(/deliveries_waiting_unattempted/);
  });
});
