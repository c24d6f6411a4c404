import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { DataSource, MigrationInterface } from 'typeorm';
import { createDataSource } from '../src/entities.js';
import { runMigrations } from '../src/common/database/migrate.js';
import { DEFAULTS } from '../src/config/config.js';
import { preflight } from '../src/processes/preflight.js';

/**
 * Test databases are real PostgreSQL databases. The schema is migrated once into a template named after a hash of the
 * migrations' source, so it is rebuilt whenever a migration changes; every test file then gets a fresh clone of it
 * (CREATE DATABASE … TEMPLATE copies files, far faster than migrating again) and drops it when done.
 */
export const baseUrl = (): string => process.env.DATABASE_URL ?? DEFAULTS.DATABASE_URL;
const redisUrl = (): string => process.env.REDIS_URL ?? DEFAULTS.REDIS_URL;

export function databaseUrl(name: string): string {
  const url = new URL(baseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function templateName(): string {
  const dir = join(process.cwd(), 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  return `flusso_test_template_${hash.digest('hex').slice(0, 12)}`;
}

let template: Promise<string> | undefined;

/** Creates the template once per schema; an advisory lock keeps parallel test workers (and checkouts) from racing. */
function ensureTemplate(): Promise<string> {
  template ??= (async () => {
    await preflight({ databaseUrl: databaseUrl('postgres'), redisUrl: redisUrl(), redisCluster: null }, false);
    const name = templateName();
    await withAdmin(async (admin) => {
      await admin.query('SELECT pg_advisory_lock(727001)');
      try {
        // Several checkouts may test side by side with different migrations: a template is dropped only when no run
        // has used it for a day (each run stamps its own in the database's comment).
        const stale = await admin.query(
          `SELECT datname FROM pg_database
            WHERE datname LIKE 'flusso\\_test\\_template\\_%' AND datname NOT LIKE '%\\_building' AND datname <> $1
              AND coalesce(shobj_description(oid, 'pg_database'), '') < $2`,
          [name, new Date(Date.now() - 24 * 3600_000).toISOString()],
        );
        for (const row of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
        const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        const stamp = () => admin.query(`COMMENT ON DATABASE "${name}" IS '${new Date().toISOString()}'`);
        if (rowCount) {
          await stamp();
          return;
        }
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        await admin.query(`CREATE DATABASE "${building}"`);
        const dataSource = createDataSource(databaseUrl(building));
        await dataSource.initialize();
        await runMigrations(dataSource);
        await dataSource.destroy();
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
        await stamp();
      } finally {
        await admin.query('SELECT pg_advisory_unlock(727001)');
      }
    });
    return name;
  })();
  return template;
}

/** A fresh, migrated database for one test file; `drop()` removes it. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const source = await ensureTemplate();
  const name = `flusso_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`));
  return {
    url: databaseUrl(name),
    name,
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A fresh test database with the schema as it was before `migration`: it and every later migration are undone, so a
 * test can write rows the old way and then run the migrations. `drop()` disconnects and removes the database.
 */
export async function databaseBefore(migration: new () => MigrationInterface): Promise<{ db: DataSource; drop: () => Promise<void> }> {
  const database = await createTestDatabase();
  const db = createDataSource(database.url);
  await db.initialize();
  // TypeORM records a migration under its name member, else its class name.
  const name = new migration().name ?? migration.name;
  const drop = async () => {
    await db.destroy();
    await database.drop();
  };
  const executed = async () => (await db.query('SELECT 1 FROM migrations WHERE name = $1', [name])).length > 0;
  if (!(await executed())) {
    await drop();
    throw new Error(`${name} is not among the migrations the test database ran.`);
  }
  while (await executed()) await db.undoLastMigration({ transaction: 'each' });
  return { db, drop };
}
