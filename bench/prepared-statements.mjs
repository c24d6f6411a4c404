// What named prepared statements save (issue 15): the API's list pages served with DB_PREPARED_STATEMENTS=true and
// =false (as through PgBouncer in transaction mode), measured as CPU time per request of the API process and of its
// PostgreSQL backends (from /proc: stable on a shared machine, where requests per second are not). Each setting runs
// BENCH_ROUNDS times (default 3), alternating, BENCH_REQUESTS requests a round (default 3,000) over 10 connections.
// Run with `npm run bench:prepared` (builds first); the database is …/flusso_bench_prepared (BENCH_DATABASE_URL).
import 'reflect-metadata';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../dist/server/src/config/config.js';
import { seedDemo } from '../dist/server/src/demo/seed-demo.js';
import { benchDatabaseUrl, benchEnv, cpuMs, freePort, freshDatabase, startApi, waitFor } from './support.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3_000);
const CONNECTIONS = 10;
const databaseUrl = benchDatabaseUrl('flusso_bench_prepared', process.env.BENCH_DATABASE_URL);

const db = await freshDatabase(databaseUrl);
const demo = await seedDemo(db, { transactions: 20_000, settings: loadConfig({ ...process.env, DATABASE_URL: databaseUrl }) });
await db.query('ANALYZE');
const probe = new pg.Client({ connectionString: databaseUrl });
await probe.connect();

const ROUTES = {
  transactions: `/api/v1/companies/${demo.companyId}/transactions?page_size=25&filter[type]=CREDIT&sort=-date`,
  documents: `/api/v1/companies/${demo.companyId}/documents?page_size=25&expand=flows,category`,
};
const headers = { authorization: `Bearer ${demo.apiKey}` };

/** CPU ms used so far by each of the API's PostgreSQL backends, by process id. */
async function backendsCpuMs() {
  const { rows } = await probe.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'flusso'`);
  return new Map(rows.map(({ pid }) => [pid, cpuMs(pid) ?? 0]));
}

/**
 * CPU ms the backends used between two readings: those opened meanwhile count whole (pg's pool closes idle connections
 * and opens new ones), those closed meanwhile are left out.
 */
const backendsUsed = (before, after) => [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/** CPU µs per request of the API process and of PostgreSQL, for `amount` requests of `path`. */
async function measure(api, port, path, amount) {
  const [apiBefore, pgBefore] = [cpuMs(api.pid), await backendsCpuMs()];
  const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers, connections: CONNECTIONS, amount });
  if (result.non2xx || result.errors) throw new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { api: ((cpuMs(api.pid) - apiBefore) * 1000) / amount, pg: (backendsUsed(pgBefore, await backendsCpuMs()) * 1000) / amount };
}

const totals = { true: {}, false: {} };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const prepared of ['true', 'false']) {
      const port = await freePort();
      const api = startApi(benchEnv(databaseUrl, { DB_PREPARED_STATEMENTS: prepared, DB_COMPANY_CONNECTIONS: '10' }), port);
      try {
        await waitFor(`http://127.0.0.1:${port}${ROUTES.transactions}`, headers, 150);
        for (const [name, path] of Object.entries(ROUTES)) {
          await measure(api, port, path, 500); // warm-up: every pooled connection opened, statements prepared
          const { api: apiUs, pg: pgUs } = await measure(api, port, path, REQUESTS);
          const total = (totals[prepared][name] ??= { api: 0, pg: 0 });
          total.api += apiUs / ROUNDS;
          total.pg += pgUs / ROUNDS;
        }
      } finally {
        api.kill();
        await new Promise((resolve) => api.once('exit', resolve));
      }
    }
  }
  const fmt = (n) => n.toFixed(0).padStart(8);
  console.log(`\nCPU µs per request, ${ROUNDS} rounds of ${REQUESTS} requests each, ${CONNECTIONS} connections`);
  console.log('                             API  PostgreSQL     sum');
  for (const name of Object.keys(ROUTES)) {
    for (const prepared of ['true', 'false']) {
      const { api, pg: pgUs } = totals[prepared][name];
      console.log(`${name.padEnd(13)} ${prepared === 'true' ? 'named  ' : 'unnamed'}${fmt(api)}${fmt(pgUs)}    ${fmt(api + pgUs)}`);
    }
    const on = totals.true[name];
    const off = totals.false[name];
    console.log(
      `${name.padEnd(13)} unnamed / named: PostgreSQL ${(off.pg / on.pg).toFixed(2)}×, API + PostgreSQL ${((off.api + off.pg) / (on.api + on.pg)).toFixed(2)}×`,
    );
  }
} finally {
  await probe.end();
  await db.destroy();
}
