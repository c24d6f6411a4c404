// E-invoice ingest benchmark (issues 7 and 18). Through the real API (its own process, PostgreSQL, Redis):
//   1. invoices per second created by POST …/documents/invoice (parse, validate, SDI checks, derive, persist) over
//      the oracle's valid samples (../shared/fatturapa/samples/valid, the single-invoice ones: files holding two
//      invoices are refused by design) and its simplified one (FSM10), one request in BENCH_P7M_EVERY (default 10)
//      a signed .p7m envelope of a sample (signed beforehand with OpenSSL), against the same work without the framework
//      (ingest-baseline.mjs: libxmljs2 and the same schema, the SDI checks, the same rows through `pg`, the
//      `document.created` event row included): both rates and
//      their ratio (target ≥ 0.8); `xmllint --nonet --noout --schema xsd/… <the same files>` as context;
//   2. the p99 of a list call (GET …/documents, from a thread of its own) made while the ingest runs, against its p99
//      when the API is idle, in spells that alternate
//      (target ≤ 2×).
// Each request carries a sample with its invoice number made unique (`<Numero>` gets a suffix), so that no request is
// a duplicate (SDI rule 00404). Companies are made for the samples' senders.
// Where the time goes: next to the rates it prints the CPU time per invoice of the API process and of its PostgreSQL
// backends (Linux /proc), which a busy machine disturbs far less than it does the rates.
// Run with `npm run bench:ingest` (builds first). BENCH_SECONDS (default 20) per measurement, BENCH_CONCURRENCY
// (default 8) requests in flight. The database BENCH_DATABASE_URL (default …/flusso_bench_ingest) is created afresh on
// every run, so that runs compare.
import 'reflect-metadata';
import { benchDatabaseUrl, benchEnv, cpuMs, freePort, freshDatabase, startApi, waitFor } from './support.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { baselineIngest } from './ingest-baseline.mjs';
import { listLatencies, p99, percentile } from './list-prober.mjs';
import { Agent, request, setGlobalDispatcher } from 'undici';
import { loadConfig } from '../dist/server/src/config/config.js';
import { preflight } from '../dist/server/src/processes/preflight.js';
import { INVOICE_XSD_PATH } from '../dist/server/src/invoices/fatturapa/schema-file.js';
import { IntegratorsService } from '../dist/server/src/integrators/integrators.service.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const databaseUrl = benchDatabaseUrl('flusso_bench_ingest', process.env.BENCH_DATABASE_URL);
setGlobalDispatcher(new Agent({ connections: CONCURRENCY + 2, keepAliveTimeout: 60_000 }));

const dir = resolve('../shared/fatturapa/samples/valid');
const simplifiedDir = resolve('../shared/fatturapa/samples/simplified');
const P7M_EVERY = Number(process.env.BENCH_P7M_EVERY ?? 10);
const first = (xml, element) => new RegExp(`<${element}>([^<]*)</${element}>`).exec(xml)?.[1];
const SELF_INVOICES = new Set(['TD16', 'TD17', 'TD18', 'TD19', 'TD20', 'TD21', 'TD22', 'TD23', 'TD27', 'TD28', 'TD29']);
const samples = [
  ...readdirSync(dir)
    .filter((name) => name.endsWith('.xml'))
    .sort()
    .map((name) => join(dir, name)),
  join(simplifiedDir, 'IT01234567890_FSM10.xml'),
]
  .map((path) => {
    const name = path.split('/').pop();
    const bytes = readFileSync(path);
    const xml = bytes.toString('latin1');
    const party = SELF_INVOICES.has(first(xml, 'TipoDocumento')) ? 'CessionarioCommittente' : 'CedentePrestatore';
    const block = new RegExp(`<${party}>[\\s\\S]*?</${party}>`).exec(xml)[0];
    const vat = `${first(block, 'IdPaese')}${first(block, 'IdCodice')}`.replace(/[\s.-]/g, '').toUpperCase();
    return { name, bytes, xml, vat, bodies: xml.match(/<FatturaElettronicaBody>/g).length, number: first(xml, 'Numero') };
  })
  .filter((sample) => sample.bodies === 1);

/**
 * Signed envelopes (CAdES-BES, as test/signed-files.ts makes them) of samples with unique numbers, made before the
 * measurement: enough for the share of signed requests, numbered apart from the plain ones.
 */
function signedEnvelopes(count) {
  const work = mkdtempSync(join(tmpdir(), 'flusso-bench-p7m-'));
  const [key, cert, input, output] = ['key.pem', 'cert.pem', 'in.xml', 'out.p7m'].map((f) => join(work, f));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', '/CN=BENCH'], {
    stdio: 'ignore',
  });
  const envelopes = [];
  for (let i = 0; i < count; i++) {
    const sample = samples[i % samples.length];
    writeFileSync(input, uniqueBody(sample, 1e9 + i));
    execFileSync(
      'openssl',
      ['cms', '-sign', '-binary', '-nodetach', '-cades', '-md', 'sha256', '-signer', cert, '-inkey', key, '-in', input, '-outform', 'DER', '-out', output],
      { stdio: 'ignore' },
    );
    envelopes.push({ sample, body: readFileSync(output) });
  }
  rmSync(work, { recursive: true, force: true });
  return envelopes;
}

/** The next request of a run: a sample with a unique number, or one request in P7M_EVERY a signed envelope while any is left. */
function requests(counter, envelopes) {
  return () => {
    const n = counter.next++;
    if (n % P7M_EVERY === 0 && envelopes.length) return { ...envelopes.shift(), signed: true };
    const sample = samples[n % samples.length];
    return { sample, body: uniqueBody(sample, n), signed: false };
  };
}

/** The sample with a unique invoice number: the number's last characters replaced by a counter (Numero ≤ 20 characters). */
function uniqueBody(sample, n) {
  const suffix = `-${n.toString(36)}`;
  const number = (sample.number.slice(0, 20 - suffix.length) + suffix).replace(/&/g, '&amp;');
  return Buffer.from(sample.xml.replace(`<Numero>${sample.number}</Numero>`, `<Numero>${number}</Numero>`), 'latin1');
}

async function prepare() {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  await preflight(config, true);
  const db = await freshDatabase(databaseUrl);
  const integrators = new IntegratorsService(db, config, async () => undefined);
  const integrator = await integrators.createIntegrator(`ingest bench ${new Date().toISOString()}`);
  const companyOf = new Map();
  for (const vat of new Set(samples.map((s) => s.vat))) {
    const [{ id }] = await db.query(`INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ($1, $2, 'IT', 'RF01') RETURNING id`, [
      `Bench ${vat}`,
      vat,
    ]);
    await integrators.grant(integrator.id, id);
    companyOf.set(vat, id);
  }
  const key = await integrators.createKey(integrator.id, undefined, 'ingest bench');
  return { db, config, key: key.key, companyOf };
}

/**
 * The CPU used while `work` runs by the API process, its XML readers (its child processes), the PostgreSQL backends
 * serving it, and this process (the benchmark's client).
 */
async function cpuDuring(db, apiPid, work) {
  const backends = (
    await db.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'flusso' AND pid <> pg_backend_pid()`)
  ).map((r) => r.pid);
  const readers = () => {
    try {
      return execFileSync('ps', ['-o', 'pid=', '--ppid', String(apiPid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return []; // No child running (ps exits 1): none to count.
    }
  };
  // Per process, the CPU of those alive at both ends (a reader killed past its budget, a backend closed: left out).
  const groups = () => ({ api: [apiPid], readers: readers(), postgres: backends, client: [process.pid] });
  const take = () =>
    new Map(
      Object.values(groups())
        .flat()
        .map((pid) => [pid, cpuMs(pid)]),
    );
  const before = take();
  const result = await work();
  const after = take();
  const used = (pids) => pids.reduce((sum, pid) => (before.get(pid) != null && after.get(pid) != null ? sum + after.get(pid) - before.get(pid) : sum), 0);
  return { result, ...Object.fromEntries(Object.entries(groups()).map(([name, pids]) => [name, used(pids)])) };
}

/** Invoices created per second by CONCURRENCY loops posting the samples in turn for `seconds` (counter.created counts them). */
async function ingest(base, headers, companyOf, seconds, counter, next) {
  let created = 0;
  const end = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const { sample, body, signed } = next();
        // undici's request, not fetch: a client that costs little CPU leaves the machine's cores to what is measured.
        const response = await request(`${base}/companies/${companyOf.get(sample.vat)}/documents/invoice`, {
          method: 'POST',
          headers: { ...headers, 'content-type': signed ? 'application/pkcs7-mime' : 'application/xml' },
          body,
        });
        const text = await response.body.text();
        if (response.statusCode !== 201) throw new Error(`${sample.name} answered ${response.statusCode}: ${text.slice(0, 300)}`);
        created++;
        counter.created++;
      }
    }),
  );
  return created / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** Files per second validated by xmllint, one process per batch of all the samples. */
function xmllint(seconds) {
  const args = ['--nonet', '--noout', '--schema', resolve(INVOICE_XSD_PATH), ...samples.filter((s) => !s.name.includes('FSM10')).map((s) => join(dir, s.name))];
  let batches = 0;
  const started = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - started) / 1e9 < seconds) {
    execFileSync('xmllint', args, { stdio: 'ignore' });
    batches++;
  }
  return (batches * (args.length - 4)) / (Number(process.hrtime.bigint() - started) / 1e9);
}

const { db, key, companyOf } = await prepare();
const port = await freePort();
const api = startApi(benchEnv(databaseUrl), port);
const base = `http://127.0.0.1:${port}/api/v1`;
const headers = { authorization: `Bearer ${key}` };
const listCompany = companyOf.get(samples[0].vat);
const listUrl = `${base}/companies/${listCompany}/documents?page_size=25&expand=flows`;
try {
  await waitFor(`${base}/companies`, headers);
  const counter = { next: 0, created: 0 };
  // Enough envelopes for the signed share of both runs at a few hundred invoices a second.
  const envelopes = signedEnvelopes(Math.ceil((SECONDS * 2 * 400) / P7M_EVERY));
  const next = requests(counter, envelopes);
  await ingest(base, headers, companyOf, 2, counter, next); // warm-up, and documents for the list call to show

  // Rounds alternate the API, the baseline and xmllint, so that load from elsewhere on the machine weighs on all alike.
  const ROUNDS = 4;
  const apiRates = [];
  const baseRates = [];
  const lintRates = [];
  const cpu = { api: 0, postgres: 0, invoices: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const createdBefore = counter.created;
    const measured = await cpuDuring(db, api.pid, () => ingest(base, headers, companyOf, SECONDS / ROUNDS, counter, next));
    apiRates.push(measured.result);
    cpu.api += measured.api;
    cpu.postgres += measured.postgres;
    cpu.invoices += counter.created - createdBefore;
    baseRates.push(await baselineIngest(databaseUrl, companyOf, next, SECONDS / ROUNDS, CONCURRENCY));
    lintRates.push(xmllint(SECONDS / ROUNDS));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const apiRate = median(apiRates);
  const baseRate = median(baseRates);
  const lintRate = median(lintRates);

  // Statistics as autovacuum keeps them on a live database. This one is minutes old and never analysed: PostgreSQL
  // would plan the list's queries for a few rows and read every document and flow of the company, a cost that grows
  // with each busy spell's invoices and would count against the ingest.
  await db.query('ANALYZE');
  // Idle and busy spells alternate too: the ratio compares spells that the rest of the machine weighed on alike.
  const idle = [];
  const busy = [];
  const underList = [];
  const spells = { api: 0, readers: 0, client: 0, invoices: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(...(await listLatencies(listUrl, headers, SECONDS / 2 / ROUNDS)));
    const during = listLatencies(listUrl, headers, SECONDS);
    const createdBefore = counter.created;
    const measured = await cpuDuring(db, api.pid, () => ingest(base, headers, companyOf, SECONDS / 2 / ROUNDS, counter, next));
    underList.push(measured.result);
    for (const part of ['api', 'readers', 'client']) spells[part] += measured[part];
    spells.invoices += counter.created - createdBefore;
    during.stop();
    busy.push(...(await during));
  }
  const rateUnderList = median(underList);

  const fmt = (n, width = 10) => n.toFixed(1).padStart(width);
  console.log(
    `\n${samples.length} single-invoice samples (FSM10 included), 1 request in ${P7M_EVERY} a signed .p7m, ${CONCURRENCY} requests in flight, ${ROUNDS} alternating rounds (medians)` +
      `\nthe API's invoice lane: INVOICE_CONCURRENCY=${process.env.INVOICE_CONCURRENCY ?? 'its default'}, XML_WORKERS=${process.env.XML_WORKERS ?? 'its default'}`,
  );
  console.log(`POST documents/invoice (API, persisted) ${fmt(apiRate)} invoices/s`);
  console.log(`bare-node baseline (libxml, pg)         ${fmt(baseRate)} invoices/s`);
  console.log(`ratio API / baseline                    ${(apiRate / baseRate).toFixed(3).padStart(10)}   (target ≥ 0.8)`);
  console.log(`xmllint --noout --schema (one batch)    ${fmt(lintRate)} files/s   (context: a validator alone)`);
  console.log(`envelopes left unused                   ${String(envelopes.length).padStart(10)}`);
  if (existsSync(`/proc/${api.pid}/stat`)) {
    const perInvoice = (ms) => (ms / cpu.invoices).toFixed(2).padStart(10);
    console.log(`CPU per invoice: API process          ${perInvoice(cpu.api)} ms`);
    console.log(`CPU per invoice: PostgreSQL backends  ${perInvoice(cpu.postgres)} ms`);
  }
  console.log(`\nGET documents (page_size=25, expand=flows), sequential`);
  console.log(`idle             ${String(idle.length).padStart(6)} calls   p99 ${fmt(p99(idle))} ms   (p50 ${percentile(idle, 0.5).toFixed(1)} ms)`);
  console.log(
    `during ingest    ${String(busy.length).padStart(6)} calls   p99 ${fmt(p99(busy))} ms   (p50 ${percentile(busy, 0.5).toFixed(1)} ms; ingest ${rateUnderList.toFixed(1)} invoices/s meanwhile)`,
  );
  console.log(`ratio            ${(p99(busy) / p99(idle)).toFixed(3)}   (target ≤ 2)`);
  if (spells.invoices > 0) {
    const share = (ms) => `${(ms / spells.invoices).toFixed(2)} ms`;
    console.log(
      `CPU per invoice while the list was timed: API ${share(spells.api)}, its XML readers ${share(spells.readers)}, this benchmark's client ${share(spells.client)}`,
    );
  }
} finally {
  api.kill();
  await db.destroy();
}
