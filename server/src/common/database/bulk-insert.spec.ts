import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../entities.js';
import { createTestDatabase } from '../../../test/database.js';
import { copyBatches, insertRows, withConstraintsDeferred } from './bulk-insert.js';

describe('bulk loading', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource(database.url).initialize();
    await db.query(`CREATE TABLE notes (id int PRIMARY KEY, body text, at timestamptz)`);
  });

  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const bodies = ['plain', 'tab\there', 'line\nbreak', 'carriage\rreturn', 'back\\slash \\N', null, 'quote \' and " é ✓'];
  const columns = { id: 'int', body: 'text', at: 'timestamptz' };

  it('inserts rows through unnest, nulls and odd characters intact', async () => {
    await insertRows(
      db,
      'notes',
      columns,
      bodies.map((body, id) => ({ id, body, at: '2026-01-02T03:04:05.000Z' })),
    );
    const rows = await db.query(`SELECT body FROM notes ORDER BY id`);
    expect(rows.map((row: { body: string | null }) => row.body)).toEqual(bodies);
  });

  it('streams batches through COPY with the same fidelity', async () => {
    await db.query('TRUNCATE notes');
    const runner = db.createQueryRunner();
    try {
      const client = await runner.connect();
      const batches = [bodies.slice(0, 3), bodies.slice(3)].map((batch, b) =>
        batch.map((body, i) => ({ id: b * 10 + i, body, at: b === 0 ? '2026-01-02T03:04:05.000Z' : null })),
      );
      expect(await copyBatches(client, 'notes', columns, batches)).toBe(bodies.length);
    } finally {
      await runner.release();
    }
    const rows = await db.query(`SELECT body FROM notes ORDER BY id`);
    expect(rows.map((row: { body: string | null }) => row.body)).toEqual(bodies);
  });

  it('restores exactly the indexes and foreign keys it set aside', async () => {
    const schema = (on: Pick<DataSource, 'query'> = db) =>
      on.query(
        `SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'transactions'
         UNION ALL SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'transactions'::regclass
         ORDER BY 1`,
      );
    const before = await schema();
    let during: unknown[] = [];
    await db.transaction((manager) => withConstraintsDeferred(manager, 'transactions', async () => (during = await schema(manager))));
    expect(during.length).toBeLessThan(before.length);
    expect(await schema()).toEqual(before);
  });

  it('puts everything back when the load fails', async () => {
    const count = async () => (await db.query(`SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = 'transactions'`))[0].n;
    const before = await count();
    await expect(
      db.transaction((manager) =>
        withConstraintsDeferred(manager, 'transactions', async () => {
          throw new Error('load failed');
        }),
      ),
    ).rejects.toThrow('load failed');
    expect(await count()).toBe(before);
  });
});
