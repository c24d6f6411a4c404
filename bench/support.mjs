// What the benchmarks share: a free port, their own database (named, or BENCH_…_DATABASE_URL), made afresh, the
// arguments that start the built processes, and the CPU time a process has used.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';
import { createDataSource } from '../dist/server/src/common/database/data-source.js';
import { DEFAULTS } from '../dist/server/src/config/config.js';

/** A TCP port of 127.0.0.1 that nothing listens on right now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** `override` when set, else DATABASE_URL (or the default) with the database `name`. */
export function benchDatabaseUrl(name, override) {
  if (override) return override;
  const url = new URL(process.env.DATABASE_URL ?? DEFAULTS.DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A client of the server's `postgres` database, for creating and dropping the bench's own. */
export async function adminClient(databaseUrl) {
  const admin = new pg.Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString() });
  await admin.connect();
  return admin;
}

/** Drops and creates the database, runs the migrations, and returns it initialised: every run starts alike. */
export async function freshDatabase(databaseUrl) {
  const admin = await adminClient(databaseUrl);
  const name = new URL(databaseUrl).pathname.slice(1);
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const db = createDataSource(databaseUrl);
  await db.initialize();
  await db.runMigrations();
  return db;
}

/**
 * The arguments that start one of the built processes (`dist/server/src/main.js`, `…/worker.js`): with
 * BENCH_CPU_PROF=<folder>, each writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
 */
export const processArgs = (script) => [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), script];

/** CPU time (ms, user + system) a process has used so far, from /proc; null where there is no /proc. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}
