// Failed-authentication flood benchmark (issue 6). Runs the built API (a child process) on a database of its own and
// sends, from BENCH_CONNECTIONS clients (default 32) for BENCH_SECONDS (default 10) each:
//   1. the baseline: GET /companies with a valid key (what an authenticated request costs PostgreSQL);
//   2. the flood: the same request with a real key's prefix and a wrong secret, as a guesser would.
// For each it prints requests per second, the answers by status, p99, and PostgreSQL transactions per request (from
// pg_stat_database, read after the API process exited so every backend has flushed its counts). Target: the flood
// costs next to no transactions per request (the throttle answers 429 past AUTH_FAILURE_LIMIT without a database
// round trip), so its ratio to the baseline is near 0. Run with `npm run bench:auth-flood` (builds first). The
// database BENCH_AUTH_DATABASE_URL (default …/flusso_bench_auth) is created afresh on every run.
import 'reflect-metadata';
import { adminClient, benchDatabaseUrl, benchEnv, freePort, freshDatabase, startApi } from './support.mjs';
import { loadConfig } from '../dist/server/src/config/config.js';
import { preflight } from '../dist/server/src/processes/preflight.js';
import { createTenant } from '../dist/server/src/demo/seed-demo.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const databaseUrl = benchDatabaseUrl('flusso_bench_auth', process.env.BENCH_AUTH_DATABASE_URL);
const databaseName = new URL(databaseUrl).pathname.slice(1);

const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
await preflight(config, true);
const db = await freshDatabase(databaseUrl);
// Reads the bench database's transaction counts (from `postgres`, so its own reads are not counted) and drops it after.
const admin = await adminClient(databaseUrl);
const tenant = await createTenant(db, { name: 'Bersaglio S.r.l.', settings: config });
await db.destroy();

/** Committed and rolled-back transactions of the bench database so far (this client's own reads are in `postgres`). */
async function transactions() {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const [row] = (await admin.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [databaseName])).rows;
  return Number(row.n);
}

/** Starts the API, runs CONNECTIONS clients with `key` for DURATION seconds, stops the API; returns the figures. */
async function run(key) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  const before = await transactions();
  const api = startApi(benchEnv(databaseUrl), port);
  const exited = new Promise((resolve) => api.once('exit', resolve));
  // Ready when it answers at all: an unauthenticated request is refused before any database work.
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/companies`);
      break;
    } catch {
      if (i > 300) throw new Error('the API did not come up');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const statuses = new Map();
  const latencies = [];
  const end = Date.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        const response = await fetch(`${base}/companies`, { headers: { authorization: `Bearer ${key}` } });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  api.kill();
  await exited;
  // A backend's counts reach pg_stat_database when it exits; give the last ones a moment.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const spent = (await transactions()) - before;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / DURATION,
    p99: latencies[Math.floor(latencies.length * 0.99)],
    statuses: [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', '),
    transactions: spent,
    perRequest: spent / latencies.length,
  };
}

const key = tenant.apiKey;
// The same prefix (the lookup part), another secret of the same length and alphabet.
const wrong = key.slice(0, -8) + [...key.slice(-8)].map((c) => (c === 'a' ? 'b' : 'a')).join('');
const baseline = await run(key);
const flood = await run(wrong);
await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
await admin.end();

const line = (name, r) =>
  `${name.padEnd(28)}${r.perSecond.toFixed(0).padStart(8)} req/s  p99 ${r.p99.toFixed(1).padStart(7)} ms  ${String(r.transactions).padStart(7)} transactions  ${r.perRequest.toFixed(3)} per request  (${r.statuses})`;
console.log(`\nGET /companies, ${CONNECTIONS} connections, ${DURATION} s each`);
console.log(line('valid key (baseline)', baseline));
console.log(line('wrong secret, real prefix', flood));
console.log(`\nratio of transactions per request, flood / baseline: ${(flood.perRequest / baseline.perRequest).toFixed(3)} (target near 0)`);
console.log(`ratio of requests per second, flood / baseline: ${(flood.perSecond / baseline.perSecond).toFixed(2)}`);
