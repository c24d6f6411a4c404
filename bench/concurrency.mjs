// Concurrency benchmark (issue 6). Measures what serialising changes per document costs: CONNECTIONS clients send a
// mix of writes for BENCH_SECONDS (default 10, in alternating rounds) through the real API (a child process) in two
// scenarios with the same mix:
//   hot:    every request falls on one of 3 documents (12 flows) and 6 transactions, so most wait on a lock;
//   spread: the same on 60 documents (240 flows) and 120 transactions, so few do (the baseline).
// The mix: 35% create a reconciliation (a third with an amount of their own), 25% delete one, 25% PATCH a flow
// (payment method, expected date, sometimes amount), 15% PATCH a document's category. It prints requests/s, 2xx/s
// (the requests that changed something), p50 and p99 per scenario and operation, the hot/spread ratios, the answers by
// status and code, and the invariants of server/src/reconciliations/reconciliation-invariants.ts checked on each
// scenario's company afterwards (target: 0 violations, no 5xx; the exit code is 1 otherwise). Run with
// `npm run bench:concurrency` (builds first). The database BENCH_CONCURRENCY_DATABASE_URL (default
// …/flusso_bench_concurrency) is created afresh on every run.
import 'reflect-metadata';
import { benchDatabaseUrl, benchEnv, freePort, freshDatabase, startApi } from './support.mjs';
import { loadConfig } from '../dist/server/src/config/config.js';
import { preflight } from '../dist/server/src/processes/preflight.js';
import { createTenant } from '../dist/server/src/demo/seed-demo.js';
import { reconciliationViolations } from '../dist/server/src/reconciliations/reconciliation-invariants.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = 4;
const databaseUrl = benchDatabaseUrl('flusso_bench_concurrency', process.env.BENCH_CONCURRENCY_DATABASE_URL);

/** A company with `documents` issued invoices of 4 flows each, `transactions` credits and 4 categories. */
async function scenario(db, config, name, documents, transactions) {
  const tenant = await createTenant(db, { name, settings: config });
  const company = tenant.companyId;
  const one = async (sql, params) => (await db.query(sql, params))[0];
  const { id: account } = await one(`INSERT INTO accounts (company_id, nickname, currency) VALUES ($1, 'Conto', 'EUR') RETURNING id`, [company]);
  const categories = [];
  for (const category of ['Vendite', 'Servizi', 'Consulenze', 'Altro']) {
    categories.push((await one(`INSERT INTO categories (company_id, name) VALUES ($1, $2) RETURNING id`, [company, category])).id);
  }
  const flows = [];
  for (let d = 0; d < documents; d++) {
    const { id: document } = await one(
      `INSERT INTO documents (company_id, number, type, status, format, direction, currency, gross_amount, vat_amount, creation_date)
       VALUES ($1, $2, 'INVOICE', 'DELIVERED', 'FPR12', 'ISSUED', 'EUR', 1000, 180.33, '2026-10-01') RETURNING id`,
      [company, `FV-2026/${String(d + 1).padStart(4, '0')}`],
    );
    for (const amount of ['200.00', '250.00', '300.00', '250.00']) {
      const { id } = await one(
        `INSERT INTO flows (company_id, document_id, amount, currency, payment_status, payment_method, expected_payment_date)
         VALUES ($1, $2, $3, 'EUR', 'TO_PAY', 'TRANSFER', '2026-11-30') RETURNING id`,
        [company, document, amount],
      );
      flows.push({ id, document });
    }
  }
  const transactionIds = [];
  for (let t = 0; t < transactions; t++) {
    const amount = ['180.00', '450.00', '75.50', '1000.00', '320.10', '260.00'][t % 6];
    transactionIds.push(
      (
        await one(
          `INSERT INTO transactions (company_id, account_id, type, amount, currency, date) VALUES ($1, $2, 'CREDIT', $3, 'EUR', '2026-11-15') RETURNING id`,
          [company, account, amount],
        )
      ).id,
    );
  }
  return {
    name,
    company,
    auth: { authorization: `Bearer ${tenant.apiKey}` },
    flows,
    transactions: transactionIds,
    categories,
  };
}

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const cents = (min, max) => {
  const value = min + Math.floor(Math.random() * (max - min + 1));
  return `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;
};

/** One scenario's client state (its live links) and measurements, accumulated over the rounds. */
const measurement = (target) => ({ target, live: [], samples: new Map(), changes: new Map(), answers: new Map(), seconds: 0 });

/** Runs CONNECTIONS clients against one scenario for `seconds`, adding to its measurement. */
async function run(base, m, seconds) {
  const { target, live, samples, changes, answers } = m;
  const company = `${base}/companies/${target.company}`;
  const record = (operation, started, status, code) => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!samples.has(operation)) samples.set(operation, []);
    samples.get(operation).push(ms);
    if (status < 300) changes.set(operation, (changes.get(operation) ?? 0) + 1);
    const key = code ? `${status} ${code}` : String(status);
    answers.set(key, (answers.get(key) ?? 0) + 1);
  };
  const operations = [
    [
      0.35,
      'create reconciliation',
      () => {
        const body = { flow_id: pick(target.flows).id, transaction_id: pick(target.transactions) };
        if (Math.random() < 0.33) body.amount = { amount: cents(100, 15_000), currency: 'EUR' };
        return [`${company}/reconciliations`, 'POST', body];
      },
    ],
    [0.25, 'delete reconciliation', () => (live.length ? [`${company}/reconciliations/${live[Math.floor(Math.random() * live.length)]}`, 'DELETE'] : null)],
    [
      0.25,
      'patch flow',
      () => {
        const flow = pick(target.flows);
        const body = {
          payment_method: pick(['TRANSFER', 'RIBA', 'SDD', 'CARD']),
          expected_payment_date: `2026-12-${String(1 + Math.floor(Math.random() * 28)).padStart(2, '0')}`,
        };
        if (Math.random() < 0.3) body.amount = { amount: pick(['200.00', '250.00', '300.00', '350.00']), currency: 'EUR' };
        return [`${company}/documents/${flow.document}/flows/${flow.id}`, 'PATCH', body];
      },
    ],
    [0.15, 'patch document', () => [`${company}/documents/${pick(target.flows).document}`, 'PATCH', { category_id: pick(target.categories) }]],
  ];
  const choose = () => {
    let point = Math.random();
    for (const [weight, name, make] of operations) {
      point -= weight;
      if (point < 0) return [name, make];
    }
    return operations.at(-1).slice(1);
  };
  const stopAt = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < stopAt) {
        const [operation, make] = choose();
        const request = make();
        if (!request) continue;
        const [url, method, body] = request;
        const started = process.hrtime.bigint();
        const headers = body ? { ...target.auth, 'content-type': 'application/json' } : target.auth;
        const response = await fetch(url, { method, headers, body: body && JSON.stringify(body) });
        const text = await response.text();
        const json = text ? JSON.parse(text) : null;
        record(operation, started, response.status, json?.errors?.[0]?.code);
        if (response.status === 201) live.push(json.id);
        if (response.status === 204) live.splice(live.indexOf(url.slice(url.lastIndexOf('/') + 1)), 1);
      }
    }),
  );
  m.seconds += seconds;
}

function stats(values, seconds) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { rps: sorted.length / seconds, p50: at(0.5), p99: at(0.99) };
}

const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
await preflight(config, true);
const db = await freshDatabase(databaseUrl);
const hot = await scenario(db, config, 'Calda S.r.l.', 3, 6);
const spread = await scenario(db, config, 'Sparsa S.r.l.', 60, 120);
const port = await freePort();
const api = startApi(benchEnv(databaseUrl), port);
const base = `http://127.0.0.1:${port}/api/v1`;
let failed = false;
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/companies`, { headers: hot.auth })).ok) break;
    } catch {
      // Not listening yet.
    }
    if (i > 300) throw new Error('the API did not come up');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // A warm-up (JIT, prepared statements), then short rounds of each scenario in turn, alternating which goes first, so
  // that load from elsewhere on the machine weighs on both alike.
  await run(base, measurement(spread), 2);
  const results = { spread: measurement(spread), hot: measurement(hot) };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? ['hot', 'spread'] : ['spread', 'hot']) await run(base, results[name], DURATION / ROUNDS);
  }

  const fmt = (n, width = 9) => (Number.isFinite(n) ? n.toFixed(1) : '-').padStart(width);
  const columns = (row) => `${fmt(row.rps, 11)}${fmt(row.changes, 8)}${fmt(row.p50)}${fmt(row.p99)}`;
  console.log(`\nWrites through the API, ${CONNECTIONS} connections, ${DURATION} s per scenario in ${ROUNDS} alternating rounds`);
  console.log('spread: 60 documents, 240 flows, 120 transactions; hot: 3 documents, 12 flows, 6 transactions\n');
  console.log(`${''.padEnd(22)}${'spread'.padEnd(37)}hot`);
  console.log(
    `${'operation'.padEnd(22)}${['req/s', '2xx/s', 'p50 ms', 'p99 ms', 'req/s', '2xx/s', 'p50 ms', 'p99 ms'].map((h, i) => h.padStart([11, 8, 9, 9][i % 4])).join('')}`,
  );
  const operations = ['create reconciliation', 'delete reconciliation', 'patch flow', 'patch document', 'all'];
  for (const operation of operations) {
    const [spreadRow, hotRow] = ['spread', 'hot'].map((name) => {
      const { samples, changes, seconds } = results[name];
      const values = operation === 'all' ? [...samples.values()].flat() : (samples.get(operation) ?? []);
      const changed = operation === 'all' ? [...changes.values()].reduce((a, b) => a + b, 0) : (changes.get(operation) ?? 0);
      return { ...stats(values, seconds), changes: changed / seconds };
    });
    console.log(`${operation.padEnd(22)}${columns(spreadRow)}${columns(hotRow)}`);
    if (operation === 'all') {
      const ratio = (key) => (hotRow[key] / spreadRow[key]).toFixed(3);
      console.log(`\nratio hot / spread: req/s ${ratio('rps')}, 2xx/s ${ratio('changes')}, p50 ${ratio('p50')}, p99 ${ratio('p99')}`);
    }
  }
  for (const name of ['spread', 'hot']) {
    const { answers, target } = results[name];
    const summary = [...answers].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${key}: ${n}`);
    const violations = await reconciliationViolations(db.manager, target.company, { paidByHand: false });
    const serverErrors = [...answers].filter(([key]) => key.startsWith('5')).reduce((sum, [, n]) => sum + n, 0);
    console.log(`\n${name} answers: ${summary.join(', ')}`);
    console.log(`${name} invariants: ${violations.length} violations${violations.length ? `\n  ${violations.slice(0, 10).join('\n  ')}` : ''}`);
    if (violations.length || serverErrors) failed = true;
  }
} finally {
  api.kill();
  await db.destroy();
}
if (failed) {
  console.error('\nFAILED: invariant violations or 5xx answers (see above)');
  process.exitCode = 1;
}
