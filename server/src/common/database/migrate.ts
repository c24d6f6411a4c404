import type { DataSource } from 'typeorm';

/**
 * The key of the session advisory lock that migrations run under, in every database ('flusso' in ASCII): nothing
 * else in Flusso takes it.
 */
export const MIGRATION_LOCK = 0x666c7573736f;

/**
 * Runs the pending migrations, each in its own transaction, under a PostgreSQL advisory lock held by a connection of
 * its own. Processes that start together (a rolling deploy, `npm start`, the CLI) all migrate safely: one runs the
 * migrations while the others wait on the lock, then find nothing left to do. Returns the names of those it ran.
 * Needs a session of its own (DATABASE_URL straight to PostgreSQL, not through a pooler in transaction mode).
 */
export async function runMigrations(db: DataSource): Promise<string[]> {
  const lock = db.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return (await db.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await lock.release();
  }
}
