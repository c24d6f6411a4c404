/**
 * The snapshots of the repositories' SQL (`server/src/queries/*.sql`). Every `server/src/**\/*.repository.ts` is found
 * by name, so a new repository needs no list to join; each of its classes with `@GenerateSql` methods is built on a
 * throwaway database (with the DataSource or EntityManager its constructor asks for), every decorated method is called
 * with its example parameters, and every statement that reached PostgreSQL during the call is written, formatted, under
 * the method's name. Failures of the call are part of the example (a refused foreign key ends a write early): the
 * snapshot shows what ran. sql-snapshots.spec.ts compares the files with them, or writes them (`npm run sql`).
 */
import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Pool, PoolClient } from 'pg';
import { format } from 'sql-formatter';
import { DataSource, EntityManager } from 'typeorm';
import { DummyValue, sqlExamples, type GenerateSqlOptions } from './generate-sql.js';

/** The folder of the snapshots. */
export const QUERIES_DIR = 'server/src/queries';
const SOURCES = 'server/src';
const SUFFIX = '.repository.ts';

/** The repository files, as paths relative to the project root, in a stable order. */
export function repositoryFiles(root = process.cwd()): string[] {
  return readdirSync(join(root, SOURCES), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith(SUFFIX))
    .map((path) => join(SOURCES, path).split(sep).join('/'))
    .sort();
}

/** The snapshot file of a repository file: `server/src/accounts/accounts.repository.ts` → `accounts.repository.sql`. */
export function snapshotName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1, -'.ts'.length) + '.sql';
}

type Recorder = <T>(work: () => Promise<T>) => Promise<string[]>;

const recorders = new WeakMap<DataSource, Recorder>();

/** Records the text of every statement sent on the data source's connections during `work`. */
function recorder(dataSource: DataSource): Recorder {
  const existing = recorders.get(dataSource);
  if (existing) return existing;
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const watched = new WeakSet<PoolClient>();
  let statements: string[] | null = null;
  // Every checkout passes here (TypeORM's query runners and queryPrepared's named statements alike).
  pool.on('acquire', (client) => {
    if (watched.has(client)) return;
    watched.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const config = args[0] as string | { text?: string } | undefined;
      const text = typeof config === 'string' ? config : config?.text;
      if (statements && text) statements.push(text);
      return query(...args);
    };
  });
  const record: Recorder = async (work) => {
    statements = [];
    try {
      await work();
    } catch {
      // What ran before the failure is the example's SQL.
    } finally {
      // Lets a release or a rollback in flight reach the pool before the next example starts.
      await new Promise((settle) => setImmediate(settle));
    }
    const ran = statements;
    statements = null;
    return ran;
  };
  recorders.set(dataSource, record);
  return record;
}

function formatted(text: string): string {
  try {
    return format(text, { language: 'postgresql', tabWidth: 2 });
  } catch {
    // A statement the formatter does not parse is written as it was sent.
    return text.trim();
  }
}

export type Constructor = new (...args: unknown[]) => Record<string, unknown>;

function build(repository: Constructor, dataSource: DataSource, file: string): Record<string, unknown> {
  const types = (Reflect.getMetadata('design:paramtypes', repository) ?? []) as unknown[];
  return new repository(
    ...types.map((type) => {
      if (type === DataSource) return dataSource;
      if (type === EntityManager) return dataSource.manager;
      throw new Error(
        `${file}: ${repository.name} asks for ${(type as { name?: string })?.name ?? String(type)}; a repository takes a DataSource or an EntityManager only.`,
      );
    }),
  );
}

function argumentsOf(options: GenerateSqlOptions, dataSource: DataSource, manager: EntityManager): unknown[] {
  const database = { manager: dataSource.manager, dataSource };
  const params = typeof options.params === 'function' ? options.params(database) : (options.params ?? []);
  return params.map((value) => (value === DummyValue.MANAGER ? manager : value));
}

const joinsTransaction = (options: GenerateSqlOptions) => Array.isArray(options.params) && options.params.includes(DummyValue.MANAGER);

/**
 * Runs one example. A method that joins the caller's transaction (it takes `DummyValue.MANAGER`) is called inside one,
 * as in the product, and only its own statements are recorded: a row lock, for one, is refused outside a transaction.
 * The transaction is rolled back, so examples leave the database as they found it.
 */
async function runExample(record: Recorder, options: GenerateSqlOptions, dataSource: DataSource, call: (manager: EntityManager) => unknown): Promise<string[]> {
  if (!joinsTransaction(options)) return record(async () => call(dataSource.manager));
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  try {
    return await record(async () => call(runner.manager));
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}

async function snapshot(root: string, file: string, dataSource: DataSource): Promise<string> {
  const module = (await import(pathToFileURL(join(root, file)).href)) as Record<string, unknown>;
  const repositories = Object.values(module).filter(
    (value): value is Constructor => typeof value === 'function' && sqlExamples(value as Constructor).length > 0,
  );
  if (repositories.length === 0) throw new Error(`${file} has no method marked @GenerateSql: mark the methods that run SQL.`);
  return snapshotOf(file, repositories, dataSource);
}

/** The snapshot of repository classes: a header naming their file, then one block per example, statements ending with `;`. */
export async function snapshotOf(file: string, repositories: Constructor[], dataSource: DataSource): Promise<string> {
  const record = recorder(dataSource);
  const blocks = [`-- Written by \`npm run sql\` from ${file}: do not edit.`];
  for (const repository of repositories) {
    const instance = build(repository, dataSource, file);
    for (const { method, options } of sqlExamples(repository)) {
      const call = instance[method] as (...args: unknown[]) => unknown;
      const statements = await runExample(record, options, dataSource, (manager) => call.apply(instance, argumentsOf(options, dataSource, manager)));
      const title = `-- ${repository.name}.${method}${options.name ? ` (${options.name})` : ''}`;
      const body = statements.length ? statements.map((text) => `${formatted(text)};`).join('\n\n') : '-- (ran no SQL)';
      blocks.push(`${title}\n${body}`);
    }
  }
  return blocks.join('\n\n') + '\n';
}

/** Every snapshot, by file name (`accounts.repository.sql`), from repositories run on `dataSource` (a throwaway database). */
export async function generateSnapshots(dataSource: DataSource, root = process.cwd()): Promise<Map<string, string>> {
  const snapshots = new Map<string, string>();
  for (const file of repositoryFiles(root)) {
    const name = snapshotName(file);
    if (snapshots.has(name)) throw new Error(`Two repository files are named ${name.replace(/\.sql$/, '.ts')}: give ${file} another name.`);
    snapshots.set(name, await snapshot(root, file, dataSource));
  }
  return snapshots;
}
