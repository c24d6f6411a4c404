import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { QueryFailedError, type EntityManager } from 'typeorm';

const names = new Map<string, string>();

/** The name of a statement's prepared form: one per SQL text, so two texts never share a name. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `flusso_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (names.size >= 5000) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * Runs SQL as a named prepared statement on the manager's connection (its transaction's, else one taken from the
 * pool for this query), so PostgreSQL parses and plans it once per connection instead of on every call: for a
 * statement that writes several tables, planning costs more than running it. Failures are TypeORM's
 * QueryFailedError, as from manager.query(), so the error mapping treats them alike. Values stay bound parameters.
 */
export async function queryPrepared<R = Record<string, unknown>>(manager: EntityManager, text: string, values: unknown[]): Promise<R[]> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const client = (await runner.connect()) as PoolClient;
    try {
      return (await client.query({ name: statementName(text), text, values })).rows as R[];
    } catch (error) {
      throw new QueryFailedError(text, values, error as Error);
    }
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}
