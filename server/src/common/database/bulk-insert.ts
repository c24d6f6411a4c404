import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Writing generated rows fast. Sets of up to a few thousand rows go in as one INSERT each, every column sent as one
 * array parameter and turned back into rows by `unnest` (one round trip, values stay bound parameters). Large
 * streams go through COPY, with the table's indexes and foreign keys set aside until the load is over.
 */

export type Row = Record<string, unknown>;

/** Column name → PostgreSQL type, in insertion order. */
export type ColumnTypes = Readonly<Record<string, string>>;

export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export async function insertRows(db: Queryable, table: string, columns: ColumnTypes, rows: readonly Row[], onConflict = ''): Promise<void> {
  if (rows.length === 0) return;
  const { names, unnest, parameters } = unnestRows(columns, rows);
  await db.query(`INSERT INTO ${table} (${names}) SELECT * FROM ${unnest} ${onConflict}`, parameters);
}

/**
 * The rows as a set-returning `unnest(…)` of one array parameter per column ($1, $2, … in the order of `columns`),
 * for a statement that does more with them than insertRows: `names` lists the columns, comma-separated.
 */
export function unnestRows(columns: ColumnTypes, rows: readonly Row[]): { names: string; unnest: string; parameters: unknown[][] } {
  const names = Object.keys(columns);
  const arrays = names.map((name, index) => `$${index + 1}::${columns[name]}[]`);
  return { names: names.join(', '), unnest: `unnest(${arrays.join(', ')})`, parameters: names.map((name) => rows.map((row) => row[name] ?? null)) };
}

/** A value in COPY's text format: \N for null, and backslash escapes for the characters that delimit fields and rows. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(/[\\\t\n\r]/g, (char) => COPY_ESCAPES[char]);
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Streams batches of rows into the table with COPY, PostgreSQL's fastest way in: the next batch is generated while
 * the server writes the previous one, on another core, and a million rows never sit in memory at once.
 */
export async function copyBatches(client: pg.ClientBase, table: string, columns: ColumnTypes, batches: Iterable<readonly Row[]>): Promise<number> {
  const names = Object.keys(columns);
  let copied = 0;
  function* lines(): Generator<string> {
    for (const batch of batches) {
      copied += batch.length;
      yield batch.map((row) => names.map((name) => copyField(row[name])).join('\t')).join('\n') + '\n';
    }
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom(`COPY ${table} (${names.join(', ')}) FROM STDIN`)));
  return copied;
}

/**
 * Runs a large load into `table` the way PostgreSQL's manual advises for populating a database: without the table's
 * secondary indexes and foreign keys, which are then built and checked once over all rows. That is several times
 * faster than maintaining them row by row (the trigram GIN indexes and the per-row foreign-key triggers most of all).
 * Definitions are read back from the catalogue, so what comes back is exactly what the migrations made. Must run
 * inside a transaction, whose failure restores everything; the table stays locked until it ends, which suits
 * seeding, not a busy table.
 */
export async function withConstraintsDeferred<T>(db: Queryable, table: string, load: () => Promise<T>): Promise<T> {
  const indexes = (await db.query(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
      WHERE i.indrelid = $1::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conrelid = i.indrelid AND c.conindid = i.indexrelid)`,
    [table],
  )) as { name: string; definition: string }[];
  const foreignKeys = (await db.query(
    `SELECT quote_ident(conname) AS name, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`,
    [table],
  )) as { name: string; definition: string }[];

  for (const key of foreignKeys) await db.query(`ALTER TABLE ${table} DROP CONSTRAINT ${key.name}`);
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
  const result = await load();
  await db.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  for (const index of indexes) await db.query(index.definition);
  for (const key of foreignKeys) await db.query(`ALTER TABLE ${table} ADD CONSTRAINT ${key.name} ${key.definition}`);
  await db.query(`ANALYZE ${table}`);
  return result;
}

/** Whether a load of `rows` is large enough, against what the table holds, to defer its indexes and foreign keys. */
export async function isBulkLoad(db: Queryable, table: string, rows: number): Promise<boolean> {
  if (rows < 100_000) return false;
  const [{ estimate }] = (await db.query(`SELECT reltuples::float8 AS estimate FROM pg_class WHERE oid = $1::regclass`, [table])) as {
    estimate: number;
  }[];
  return rows >= estimate;
}
