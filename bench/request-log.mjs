// What the request log costs the API (issue 19). Two built APIs on one database, one with the request log
// (REQUEST_LOG=on) and one without (REQUEST_LOG=off), are measured in alternating rounds on three calls:
//   1. the list call of bench/api.mjs (GET transactions, 200: successes are not logged, so this is the hook's cost alone);
//   2. a 404 (a document that does not exist: one database read, then the error and its log entry);
//   3. a 400 (an unknown filter: refused before any database work, the cheapest failure, so the log's largest share).
// For each: requests/s and the CPU time the API process spent per request (from /proc, stable on a shared machine),
// and the ratio on/off (target for the list call: CPU on ≤ 1.05 × off). Then it counts the entries written against the
// failed requests the logging API answered (nothing dropped unless PostgreSQL fell behind).
// Run with `npm run bench:request-log` (builds first). BENCH_TRANSACTIONS (default 20,000), BENCH_SECONDS per call and
// API (default 20, in 5 rounds), BENCH_CONNECTIONS (default 10), BENCH_PORTS (default 41500,41501),
// BENCH_REQUEST_LOG_DATABASE_URL (default …/flusso_bench_request_log, made afresh and dropped at the end), REDIS_PREFIX
// (default one of its own).
import 'reflect-metadata';
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../dist/server/src/config/config.js';
import { seedDemo } from '../dist/server/src/demo/seed-demo.js';
import { RequestLogWriter } from '../dist/server/src/request-logs/request-log-writer.js';
import { RequestLogsRepository } from '../dist/server/src/request-logs/request-logs.repository.js';
import { adminClient, benchDatabaseUrl, benchEnv, cpuMs, freePort, freshDatabase, startApi, waitFor } from './support.mjs';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 20_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = 5;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const databaseUrl = benchDatabaseUrl('flusso_bench_request_log', process.env.BENCH_REQUEST_LOG_DATABASE_URL);

// Made afresh, other runs' Redis keys left alone: only this run's prefix is used.
const db = await freshDatabase(databaseUrl, { clearRedis: false });
const demo = await seedDemo(db, { transactions: TRANSACTIONS, documents: 200, settings: loadConfig({ ...process.env, DATABASE_URL: databaseUrl }) });
await db.query('ANALYZE');

const ports = process.env.BENCH_PORTS ? process.env.BENCH_PORTS.split(',').map(Number) : [await freePort(), await freePort()];
const env = benchEnv(databaseUrl, {
  DB_POOL_SIZE: '10',
  DB_COMPANY_CONNECTIONS: '10',
  ...(process.env.REDIS_PREFIX && { REDIS_PREFIX: process.env.REDIS_PREFIX }),
});
const apis = {
  on: { process: startApi({ ...env, REQUEST_LOG: 'on' }, ports[0]), port: ports[0] },
  off: { process: startApi({ ...env, REQUEST_LOG: 'off' }, ports[1]), port: ports[1] },
};
const headers = { authorization: `Bearer ${demo.apiKey}` };
const company = `/api/v1/companies/${demo.companyId}`;
const calls = [
  { name: 'list (200)', path: `${company}/transactions?page_size=25&filter[type]=CREDIT&sort=-date`, status: 200 },
  { name: 'missing document (404)', path: `${company}/documents/${randomUUID()}`, status: 404 },
  { name: 'unknown filter (400)', path: `${company}/transactions?filter[nope]=1`, status: 400 },
];

/** One round of `call` on `api`, after a one-second warm-up: requests, seconds and the API's CPU time (ms). */
async function round(api, call, seconds) {
  const url = `http://127.0.0.1:${api.port}${call.path}`;
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 });
  const cpuBefore = cpuMs(api.process.pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  const cpu = cpuMs(api.process.pid) - cpuBefore;
  const expected = result[`${Math.floor(call.status / 100)}xx`];
  if (result.errors || result.timeouts || expected !== result.requests.total) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} time-outs, ${expected} of ${result.requests.total} answers ${call.status}`);
  }
  return { requests: result.requests.total, cpu };
}

try {
  for (const [which, api] of Object.entries(apis)) {
    api.process.once('exit', (code) => code !== null && console.error(`the API with REQUEST_LOG=${which} exited with ${code}`));
    // A shared machine may take a while to start a process: up to two minutes.
    await waitFor(`http://127.0.0.1:${api.port}${calls[0].path}`, headers, 600);
  }
  const results = [];
  for (const call of calls) {
    const totals = { on: { requests: 0, cpu: 0 }, off: { requests: 0, cpu: 0 } };
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which goes first, so that load from elsewhere on the machine weighs on both alike.
      for (const which of r % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
        const { requests, cpu } = await round(apis[which], call, DURATION / ROUNDS);
        totals[which].requests += requests;
        totals[which].cpu += cpu;
      }
    }
    results.push({ call, totals });
  }
  // What the logging API answered with a failure (warm-ups included), against what it wrote: one last flush first.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const [{ written }] = await db.query(`SELECT count(*)::int AS written FROM request_logs`);

  const fmt = (n, width = 10) => n.toFixed(0).padStart(width);
  console.log(`\nRequest log on vs off, ${CONNECTIONS} connections, ${DURATION} s per call and API in ${ROUNDS} alternating rounds`);
  console.log('call                          req/s on  req/s off   CPU µs/req on  CPU µs/req off   CPU on/off');
  for (const { call, totals } of results) {
    const rps = (t) => t.requests / DURATION;
    const cpuPerRequest = (t) => (t.cpu * 1000) / t.requests;
    console.log(
      `${call.name.padEnd(26)} ${fmt(rps(totals.on))} ${fmt(rps(totals.off))} ${fmt(cpuPerRequest(totals.on), 15)} ${fmt(cpuPerRequest(totals.off), 15)}   ${(cpuPerRequest(totals.on) / cpuPerRequest(totals.off)).toFixed(3)}`,
    );
  }
  // The writer alone, in this process: what recording and writing cost per entry on the API's side (building the
  // entry, the buffer, the batched INSERT's parameters), without HTTP and without the noise of a shared machine.
  const writer = new RequestLogWriter(new RequestLogsRepository(db), { requestLog: { flushMs: 60_000, bufferLimit: 1_000_000 } });
  const ENTRIES = 50_000;
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < ENTRIES; i++) {
    writer.record({
      integratorId: demo.integratorId,
      environment: 'development',
      apiKeyId: demo.keyId,
      keyPrefix: demo.apiKey.slice(0, 16),
      companyId: demo.companyId,
      method: 'GET',
      route: '/companies/{company_id}/transactions',
      path: `${company}/transactions`,
      status: 400,
      errorCodes: ['invalid_query_parameter'],
      requestId: `bench-${i}`,
      durationMs: 1.2,
      at: new Date(),
    });
  }
  await writer.close();
  const writerCpu = process.cpuUsage(cpuBefore);
  console.log(
    `\nthe writer alone: ${((writerCpu.user + writerCpu.system) / ENTRIES).toFixed(1)} µs of CPU per entry (${ENTRIES.toLocaleString('en')} recorded and written)`,
  );
  const failedOn = results.filter(({ call }) => call.status >= 400).reduce((sum, { totals }) => sum + totals.on.requests, 0);
  console.log(
    `\nentries written: ${written.toLocaleString('en')} (measured failed requests of the logging API: ${failedOn.toLocaleString('en')}, plus warm-ups)`,
  );
} finally {
  for (const api of Object.values(apis)) api.process.kill();
  await db.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const dropper = await adminClient(databaseUrl);
  await dropper.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
  await dropper.end();
}
