import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';

/** The data source option (in `extra`) that says whether statements get names (DB_PREPARED_STATEMENTS). */
export const PREPARED_STATEMENTS = 'flussoPreparedStatements';

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
 * Whether statements run under a name on `dataSource`. Not when DB_PREPARED_STATEMENTS turns them off (through a
 * transaction-mode pooler, a name's next use could reach a server connection that never prepared it): then they run
 * unnamed, parsed and planned each time.
 */
export function namesStatements(dataSource: DataSource): boolean {
  return (dataSource.options.extra as Record<string, unknown> | undefined)?.[PREPARED_STATEMENTS] !== false;
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
      return (await client.query({ name: namesStatements(manager.connection) ? statementName(text) : undefined, text, values })).rows as R[];
    } catch (error) {
      throw new QueryFailedError(text, values, error as Error);
    }
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}
