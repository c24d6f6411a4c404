// What the benchmarks share: a free port, their own database (named, or BENCH_…_DATABASE_URL), made afresh, the
// environment and start of the built API and worker, and the CPU time a process has used.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createDataSource } from '../dist/server/src/entities.js';
import { runMigrations } from '../dist/server/src/common/database/migrate.js';
import { DEFAULTS } from '../dist/server/src/config/config.js';
import { apiNodeFlags } from '../dist/server/src/processes/node-flags.js';

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

/** Prefix of every benchmark process's Redis keys: `flusso-bench-<random>`, one per run (benchEnv). */
const BENCH_REDIS_PREFIX = 'flusso-bench-';

/** Deletes the Redis keys earlier runs left (their BullMQ queues keep finished jobs), so that they don't pile up. */
async function clearBenchRedis() {
  const redis = new Redis(process.env.REDIS_URL ?? DEFAULTS.REDIS_URL, { lazyConnect: true });
  await redis.connect();
  for await (const keys of redis.scanStream({ match: `${BENCH_REDIS_PREFIX}*`, count: 1000 })) if (keys.length) await redis.unlink(...keys);
  await redis.quit();
}

/**
 * Drops and creates the database, runs the migrations, and returns it initialised, with no Redis keys left by earlier
 * runs (unless `clearRedis` is false: a bench that starts no process and uses no Redis leaves other runs' keys alone):
 * every run starts alike.
 */
export async function freshDatabase(databaseUrl, { clearRedis = true } = {}) {
  if (clearRedis) await clearBenchRedis();
  const admin = await adminClient(databaseUrl);
  const name = new URL(databaseUrl).pathname.slice(1);
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const db = createDataSource(databaseUrl);
  await db.initialize();
  await runMigrations(db);
  return db;
}

/**
 * The environment of the built processes a benchmark starts: its database, a Redis prefix of its own, quiet logs and
 * a rate limit out of the way; `extra` adds to it or overrides.
 */
export const benchEnv = (databaseUrl, extra = {}) => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_PREFIX: `${BENCH_REDIS_PREFIX}${randomBytes(4).toString('hex')}`,
  LOG_LEVEL: 'error',
  RATE_LIMIT_POINTS: '10000000',
  ...extra,
});

/**
 * Starts a built process (`main.js` or `worker.js` of dist/server/src) with `env` and Node.js `flags`, its output
 * dropped and its errors shown. With BENCH_CPU_PROF=<folder>, it writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
 */
function startBuilt(script, env, flags = []) {
  return spawn(process.execPath, [...profileFlags(), ...flags, `dist/server/src/${script}`], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The Node.js flags that write a V8 CPU profile to BENCH_CPU_PROF when it is set. */
export const profileFlags = () => (process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []);

/** Starts the built API on 127.0.0.1:`port`, with the Node.js flags `npm start` gives it (API_NODE_FLAGS). */
export const startApi = (env, port) => startBuilt('main.js', { ...env, PORT: String(port), HOST: '127.0.0.1' }, apiNodeFlags(env.NODE_OPTIONS));

/** Starts the built worker. */
export const startWorker = (env) => startBuilt('worker.js', env);

/** CPU time (ms, user + system) a process has used so far, from /proc; null where there is no /proc. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

/** Resolves once `url` answers 2xx (a process just started), asking every 200 ms, `tries` times at most. */
export async function waitFor(url, headers = {}, tries = 100) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up`);
}
