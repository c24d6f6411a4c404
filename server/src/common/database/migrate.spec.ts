import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { migrations } from '../../../../migrations/index.js';
import { databaseUrl } from '../../../test/database.js';
import { runCli } from '../../cli/run-cli.js';

describe('migrations run by several processes at once', () => {
  const name = `flusso_test_${process.pid}_migrate_${randomBytes(4).toString('hex')}`;
  const url = databaseUrl(name);

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl('postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('all succeed on a database that does not exist yet: one creates and migrates it, the others wait and find nothing to do', async () => {
    const env = { ...process.env, DATABASE_URL: url, FLUSSO_ENV: 'development' };
    const runs = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runCli(['migrate', '--json'], env, { out: (line) => out.push(line), err: (line) => err.push(line) });
        return { code, err, ran: code === 0 ? (JSON.parse(out[0]) as { migrations: string[] }).migrations.length : -1 };
      }),
    );
    expect(runs.map(({ code, err }) => ({ code, err }))).toEqual(Array(5).fill({ code: 0, err: [] }));
    expect(runs.map(({ ran }) => ran).sort((a, b) => a - b)).toEqual([0, 0, 0, 0, migrations.length]);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n, count(DISTINCT name)::int AS names FROM migrations');
      expect(rows[0]).toEqual({ n: migrations.length, names: migrations.length });
    } finally {
      await client.end();
    }
  });
});
