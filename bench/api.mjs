// API benchmark (issues 2 and 15). Fills a company with BENCH_TRANSACTIONS (default 1,000,000) bank transactions, then in
// one run measures:
//   1. GET transactions (page_size 25, filter[type], sort=-date) through the API vs the same SQL served by a bare
//      node:http + pg server (bench/bare-server.mjs), at 10 and at 32 connections (BENCH_CONNECTIONS=10,32): requests/s,
//      p99, their ratio (target ≥ 0.9) and each round's (the spread of the machine's noise), and the CPU time each
//      process spent per request over the same rounds (from /proc: stable on a shared machine, where requests per
//      second are not);
//   2. the latency of the first page vs a page 40,000 pages deep (target: within 1.2×), or as deep as a smaller data set
//      goes (BENCH_TRANSACTIONS=100000 for a quick run: page 3,999).
// Run with `npm run bench:api` (builds first). The data set is kept in the database BENCH_DATABASE_URL
// (default …/flusso_bench) and reused when it already has the requested size. The API runs with
// DB_COMPANY_CONNECTIONS=DB_POOL_SIZE (10, the bare server's pool) unless the environment says otherwise.
// BENCH_CPU_PROF=<folder> writes a V8 CPU profile of the API process and of the bare server there.
import 'reflect-metadata';
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { createServer } from 'node:net';
import { createDataSource } from '../dist/server/src/entities.js';
import { runMigrations } from '../dist/server/src/common/database/migrate.js';
import { DEFAULTS, loadConfig } from '../dist/server/src/config/config.js';
import { apiNodeFlags } from '../dist/server/src/processes/node-flags.js';
import { preflight } from '../dist/server/src/processes/preflight.js';
import { seedDemo } from '../dist/server/src/demo/seed-demo.js';
import { benchEnv, cpuMs, profileFlags, startApi, waitFor } from './support.mjs';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = 5;
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,32').split(',').map(Number);
// 40,000 pages deep, or the last full page of a smaller data set.
const DEEP_PAGE = Math.min(40_000, Math.floor(TRANSACTIONS / 25) - 1);
const databaseUrl =
  process.env.BENCH_DATABASE_URL ??
  (() => {
    const url = new URL(process.env.DATABASE_URL ?? DEFAULTS.DATABASE_URL);
    url.pathname = '/flusso_bench';
    return url.toString();
  })();

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function prepare() {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  await preflight(config, true);
  const db = createDataSource(databaseUrl);
  await db.initialize();
  await runMigrations(db);
  const started = Date.now();
  const size = { transactions: TRANSACTIONS, documents: 2_000, settings: config };
  let demo = await seedDemo(db, size);
  const [{ n }] = await db.query('SELECT count(*)::int AS n FROM transactions WHERE company_id = $1', [demo.companyId]);
  if (n < TRANSACTIONS) demo = await seedDemo(db, { ...size, reset: true });
  if (demo.seeded) console.log(`seeded ${TRANSACTIONS.toLocaleString('en')} transactions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await db.query('ANALYZE');
  return { db, demo };
}

/** One round at `connections`, after a one-second warm-up; `pid` is the server measured, for its CPU time. */
async function measure(url, headers, connections, duration, pid) {
  await autocannon({ url, headers, connections, duration: 1 }); // warm-up
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, headers, connections, duration });
  const cpu = cpuMs(pid) - cpuBefore;
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} time-outs at ${connections} connections`);
  }
  return { requests: result.requests.total, rps: result.requests.average, p99: result.latency.p99, cpu };
}

/**
 * Latency of several URLs requested in turn over one keep-alive connection, so that whatever else the machine does
 * weighs on each of them alike.
 */
async function interleaved(urls, headers, rounds) {
  const samples = urls.map(() => []);
  for (let round = 0; round < rounds + 200; round++) {
    for (const [i, url] of urls.entries()) {
      const started = process.hrtime.bigint();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      if (round >= 200) samples[i].push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return samples.map((values) => {
    values.sort((a, b) => a - b);
    const at = (q) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
    return { mean: values.reduce((a, b) => a + b, 0) / values.length, p50: at(0.5), p99: at(0.99) };
  });
}

const { db, demo } = await prepare();
const [apiPort, barePort] = await Promise.all([freePort(), freePort()]);
const env = benchEnv(databaseUrl, {
  DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '10',
  DB_COMPANY_CONNECTIONS: process.env.DB_COMPANY_CONNECTIONS ?? process.env.DB_POOL_SIZE ?? '10',
});
const api = startApi(env, apiPort);
const bare = fork('bench/bare-server.mjs', {
  env: { ...env, PORT: String(barePort) },
  // The API's Node.js flags too, so that the two differ only in their code (the bare server gains nothing from them).
  execArgv: [...profileFlags(), ...apiNodeFlags(process.env.NODE_OPTIONS)],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const headers = { authorization: `Bearer ${demo.apiKey}` };
const path = `/api/v1/companies/${demo.companyId}/transactions`;
try {
  const query = '?page_size=25&filter[type]=CREDIT&sort=-date';
  await waitFor(`http://127.0.0.1:${apiPort}${path}${query}`, headers);
  await waitFor(`http://127.0.0.1:${barePort}${path}${query}`, {});

  // At each number of connections, alternate short rounds of each so that load from elsewhere on the machine weighs on
  // both alike; CPU time is counted over the measured rounds only.
  const results = [];
  for (const connections of CONNECTIONS) {
    const viaApi = { requests: 0, seconds: 0, cpu: 0, p99: [], roundRps: [] };
    const viaBare = { requests: 0, seconds: 0, cpu: 0, p99: [], roundRps: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [target, url, h, pid] of [
        [viaApi, `http://127.0.0.1:${apiPort}${path}${query}`, headers, api.pid],
        [viaBare, `http://127.0.0.1:${barePort}${path}${query}`, {}, bare.pid],
      ]) {
        const result = await measure(url, h, connections, DURATION / ROUNDS, pid);
        target.requests += result.requests;
        target.seconds += DURATION / ROUNDS;
        target.cpu += result.cpu;
        target.p99.push(result.p99);
        target.roundRps.push(result.requests / (DURATION / ROUNDS));
      }
    }
    for (const target of [viaApi, viaBare]) {
      target.rps = target.requests / target.seconds;
      target.cpuPerRequest = target.cpu / target.requests;
      target.p99 = target.p99.sort((a, b) => a - b)[Math.floor(target.p99.length / 2)];
    }
    results.push({ connections, viaApi, viaBare });
  }
  // Printed before the deep-page part, so that a failure there does not lose them.
  const fmt = (n) => n.toFixed(2).padStart(10);
  const fmtCpu = (ms) => (ms * 1000).toFixed(0).padStart(10);
  for (const { connections, viaApi, viaBare } of results) {
    console.log(
      `\nGET transactions, ${TRANSACTIONS.toLocaleString('en')} rows, ${connections} connections, ${DURATION} s each in ${ROUNDS} alternating rounds`,
    );
    console.log('                        req/s  p99 ms (median round)  CPU µs/request');
    console.log(`API (Nest + Fastify)${fmt(viaApi.rps)} ${fmt(viaApi.p99)}            ${fmtCpu(viaApi.cpuPerRequest)}`);
    console.log(`bare node:http + pg ${fmt(viaBare.rps)} ${fmt(viaBare.p99)}            ${fmtCpu(viaBare.cpuPerRequest)}`);
    console.log(
      `ratio API / bare     ${(viaApi.rps / viaBare.rps).toFixed(3)}   (target ≥ 0.9)   CPU per request bare / API ${(viaBare.cpuPerRequest / viaApi.cpuPerRequest).toFixed(3)}`,
    );
    // Each round's pair, API then bare a few seconds apart: their spread is the machine's noise the ratio carries.
    console.log(`ratio in each round  ${viaApi.roundRps.map((rps, i) => (rps / viaBare.roundRps[i]).toFixed(3)).join('  ')}`);
  }
  // The company is served at once after the load: nothing the measuring rounds abandoned is still held.
  const after = await fetch(`http://127.0.0.1:${apiPort}${path}${query}`, { headers });
  if (!after.ok) throw new Error(`after the rounds the API answered ${after.status}: ${await after.text()}`);

  // A cursor 40,000 pages deep: the API's own cursor format (keyset values + fingerprint of sort and filters),
  // pointed at the last row of page 39,999.
  const first = `http://127.0.0.1:${apiPort}${path}?page_size=25&sort=date`;
  const { page } = await (await fetch(first, { headers })).json();
  const { f } = JSON.parse(Buffer.from(page.cursor, 'base64url').toString());
  const [row] = await db.query('SELECT date::text AS date, id FROM transactions WHERE company_id = $1 ORDER BY date, id OFFSET $2 LIMIT 1', [
    demo.companyId,
    (DEEP_PAGE - 1) * 25 - 1,
  ]);
  if (!row) throw new Error(`the company has fewer than ${DEEP_PAGE} pages of transactions`);
  const deepCursor = Buffer.from(JSON.stringify({ k: [row.date, row.id], f })).toString('base64url');
  const deep = `${first}&cursor=${deepCursor}`;
  const deepBody = await (await fetch(deep, { headers })).json();
  if (!Array.isArray(deepBody.data) || deepBody.data.length === 0) throw new Error(`deep page answered ${JSON.stringify(deepBody).slice(0, 200)}`);
  const [firstPage, deepPage] = await interleaved([first, deep], headers, 2_000);

  console.log(`\nFirst page vs page ${DEEP_PAGE.toLocaleString('en')} (sort=date, 2,000 requests each, interleaved)`);
  console.log('                       mean ms     p50 ms     p99 ms');
  console.log(`first page         ${fmt(firstPage.mean)} ${fmt(firstPage.p50)} ${fmt(firstPage.p99)}`);
  console.log(`page ${DEEP_PAGE.toLocaleString('en')}        ${fmt(deepPage.mean)} ${fmt(deepPage.p50)} ${fmt(deepPage.p99)}`);
  console.log(`ratio deep / first ${(deepPage.mean / firstPage.mean).toFixed(3)}   (target ≤ 1.2)`);
} finally {
  api.kill();
  bare.kill();
  await db.destroy();
}
