// What a CSV import of a bank statement takes (issue: imports got ~2× slower when they began recording their
// `transaction.created` events). Imports BENCH_ROWS (default 10,000) rows into one account of a fresh tenant,
// BENCH_RUNS times (default 5), each with a new set of rows, through importTransactions (what `transactions:import`
// runs), and prints each run's wall time and the CPU time it cost the Node process and the database's PostgreSQL
// backends (from /proc: a loaded machine disturbs it far less than the wall time), and their medians. One row in ten
// carries every optional column, so the events' payloads are not all alike.
// Run with `npm run bench:import` (builds first). BENCH_IMPORT_DATABASE_URL (default …/flusso_bench_import) is made
// afresh on every run and dropped at the end.
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../dist/server/src/config/config.js';
import { createTenant } from '../dist/server/src/demo/seed-demo.js';
import { importTransactions } from '../dist/server/src/imports/transactions-import.js';
import { adminClient, benchDatabaseUrl, cpuMs, freshDatabase } from './support.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const databaseUrl = benchDatabaseUrl('flusso_bench_import', process.env.BENCH_IMPORT_DATABASE_URL);

const name = new URL(databaseUrl).pathname.slice(1);
const db = await freshDatabase(databaseUrl, { clearRedis: false });
const settings = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
const tenant = await createTenant(db, { settings, data: { transactions: 0, documents: 0, today: '2026-04-01' } });
const [accountId] = tenant.accountIds;

const header = 'date,amount,currency,description,value_date,booking_date_time,counterpart_name,clean_description';
const statement = (run) =>
  [
    header,
    ...Array.from({ length: ROWS }, (_, i) => {
      const amount = `${i % 2 ? '-' : ''}${(i % 9_000) + 1}.${String(i % 100).padStart(2, '0')}`;
      const day = `2026-03-${String((i % 28) + 1).padStart(2, '0')}`;
      return i % 10 === 0
        ? `${day},${amount},EUR,BONIFICO RUN ${run} ROW ${i},${day},${day}T09:30:00+01:00,Rossi Impianti S.r.l.,Bonifico ${i}`
        : `${day},${amount},EUR,MOVIMENTO RUN ${run} ROW ${i},,,,`;
    }),
  ].join('\n');

/** CPU time (ms) each PostgreSQL backend of the bench's database has used so far, by pid. */
const backendsCpu = async () => {
  const pids = await db.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
  return new Map(pids.map(({ pid }) => [pid, cpuMs(pid) ?? 0]));
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = [];
for (let run = 0; run < RUNS; run++) {
  const csv = statement(run);
  const backendsBefore = await backendsCpu();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await importTransactions(db, { companyId: tenant.companyId, accountId, csv });
  const wall = performance.now() - started;
  const { user, system } = process.cpuUsage(cpuBefore);
  let postgres = 0;
  for (const [pid, ms] of await backendsCpu()) postgres += ms - (backendsBefore.get(pid) ?? 0);
  if (result.imported !== ROWS) throw new Error(`imported ${result.imported} of ${ROWS}`);
  runs.push({ wall, node: (user + system) / 1000, postgres });
  console.log(
    `run ${run + 1}: ${ROWS} rows in ${(wall / 1000).toFixed(2)} s; CPU: Node ${Math.round((user + system) / 1000)} ms, PostgreSQL ${Math.round(postgres)} ms`,
  );
}
console.log(
  `median over ${RUNS} runs: ${(median(runs.map((r) => r.wall)) / 1000).toFixed(2)} s (min ${(Math.min(...runs.map((r) => r.wall)) / 1000).toFixed(2)} s); ` +
    `CPU: Node ${Math.round(median(runs.map((r) => r.node)))} ms, PostgreSQL ${Math.round(median(runs.map((r) => r.postgres)))} ms`,
);

await db.destroy();
const dropper = await adminClient(databaseUrl);
await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
await dropper.end();
