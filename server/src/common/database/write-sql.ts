import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULTS } from '../../config/config.js';
import { runMain } from '../../config/run-main.js';
import { createDataSource } from './data-source.js';
import { runMigrations } from './migrate.js';
import { generateSnapshots, QUERIES_DIR } from './sql-snapshots.js';

/**
 * `npm run sql`: rewrites `server/src/queries/*.sql` from the repositories (sql-snapshots.ts), on a database made for
 * the run and dropped after it, and removes the snapshots of repositories that are gone.
 */
runMain(async () => {
  const url = new URL(process.env.DATABASE_URL ?? DEFAULTS.DATABASE_URL);
  const name = `flusso_sql_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  try {
    const dataSource = createDataSource(Object.assign(new URL(url), { pathname: `/${name}` }).toString());
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
      const snapshots = await generateSnapshots(dataSource);
      mkdirSync(QUERIES_DIR, { recursive: true });
      for (const file of readdirSync(QUERIES_DIR)) if (file.endsWith('.sql') && !snapshots.has(file)) rmSync(join(QUERIES_DIR, file));
      for (const [file, text] of snapshots) writeFileSync(join(QUERIES_DIR, file), text);
      console.log(`${snapshots.size} SQL snapshots written to ${QUERIES_DIR}`);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
});
