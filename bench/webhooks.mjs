// Webhook delivery benchmark (issue 8). Runs the built API and worker as child processes on a database of its own
// (BENCH_DATABASE_URL, default …/flusso_bench_webhooks, rebuilt on every run) and a Redis prefix of its own, with
// BENCH_ENDPOINTS endpoints (default 32, so that the API's update rate, about 140 a second on two cores, doesn't bound
// the delivery rate) on a local receiver that verifies every signature (node:crypto, cross-checked with the
// `standardwebhooks` package), then measures:
//   1. latency at low load: BENCH_LOW_UPDATES (default 200) document updates through the API, one every 50 ms; for each
//      delivery, the time from the API's answer to the receiver's arrival (p50, p99; target p99 < 250 ms);
//   2. throughput: BENCH_UPDATES (default 3,000) updates through the API from BENCH_CONNECTIONS (default 32) clients at
//      once, each delivered to every endpoint: deliveries per second from the first update sent to the last delivery
//      received (target 3,000/s sustained), and the drain alone (from the last API answer to the last delivery, when
//      the worker has the machine to itself: its rate then), with the worker's CPU time per delivery.
// Run with `npm run bench:webhooks` (builds first).
import 'reflect-metadata';
import { benchDatabaseUrl, benchEnv, cpuMs, freePort, freshDatabase, startApi, startWorker } from './support.mjs';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../dist/server/src/config/config.js';
import { createTenant } from '../dist/server/src/demo/seed-demo.js';

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 32);
const LOW_UPDATES = Number(process.env.BENCH_LOW_UPDATES ?? 200);
const UPDATES = Number(process.env.BENCH_UPDATES ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DOCUMENTS = Math.max(CONNECTIONS * 4, 500);
const databaseUrl = benchDatabaseUrl('flusso_bench_webhooks', process.env.BENCH_DATABASE_URL);

async function prepareDatabase() {
  const db = await freshDatabase(databaseUrl);
  const tenant = await createTenant(db, {
    settings: loadConfig({ ...process.env, DATABASE_URL: databaseUrl }),
    data: { documents: DOCUMENTS, transactions: 10, seed: 7 },
  });
  const documents = (await db.query('SELECT id FROM documents WHERE company_id = $1 ORDER BY id', [tenant.companyId])).map((r) => r.id);
  const categories = (await db.query('SELECT id FROM categories WHERE company_id = $1 AND parent_id IS NULL ORDER BY name LIMIT 2', [tenant.companyId])).map(
    (r) => r.id,
  );
  // The demo's own changes recorded events: taken as fanned out, so that only the measured updates are delivered (an
  // endpoint registered before the worker reached them would receive them too, and the counts would be off).
  await db.query('UPDATE events SET dispatched_at = now() WHERE dispatched_at IS NULL');
  return { db, tenant, documents, categories };
}

/**
 * Standard Webhooks verification with node:crypto: a `v1,` signature among those sent must be the base64 HMAC-SHA256 of
 * `id.timestamp.body` under the secret, and the timestamp within five minutes. The `standardwebhooks` package does the
 * same in pure JavaScript (fast-sha256) at about 0.1 ms of CPU per delivery, as much as the worker spends, on the same
 * two cores; it still checks every 64th delivery here, so that the two verdicts are seen to agree.
 */
function nativeVerifier(secret) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const library = new Webhook(secret);
  let seen = 0;
  return (raw, headers) => {
    const id = headers['webhook-id'];
    const timestamp = headers['webhook-timestamp'];
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error('timestamp out of tolerance');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest();
    const valid = String(headers['webhook-signature'] ?? '')
      .split(' ')
      .some((signature) => {
        const [version, value] = signature.split(',');
        const given = Buffer.from(value ?? '', 'base64');
        return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
      });
    if (!valid) throw new Error('no matching signature');
    if (seen++ % 64 === 0) return library.verify(raw, headers);
    return JSON.parse(raw);
  };
}

/** The receiver: verifies each request and notes when each (document, version) reached each endpoint. */
function startReceiver() {
  const arrivals = new Map(); // `${document}:${version}` → [arrival times]
  let verifiers = new Map();
  let refused = 0;
  let total = 0;
  let last = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        const event = verifiers.get(req.url)(raw, req.headers);
        const key = `${event.data.id}:${event.data.version}`;
        if (!arrivals.has(key)) arrivals.set(key, []);
        arrivals.get(key).push(at);
        total++;
        last = at;
        res.writeHead(204).end();
      } catch {
        refused++;
        res.writeHead(400).end();
      }
    });
  });
  return {
    arrivals,
    get total() {
      return total;
    },
    get refused() {
      return refused;
    },
    get last() {
      return last;
    },
    setSecrets: (map) => (verifiers = new Map([...map].map(([path, secret]) => [path, nativeVerifier(secret)]))),
    listen: () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port))),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function waitUntil(condition, what, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

const { db, tenant, documents, categories } = await prepareDatabase();
const receiver = startReceiver();
const receiverPort = await receiver.listen();
const apiPort = await freePort();
const env = benchEnv(databaseUrl);
const api = startApi(env, apiPort);
const worker = startWorker(env);
const base = `http://127.0.0.1:${apiPort}/api/v1`;
const headers = { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' };

try {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/companies`, { headers })).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const secrets = new Map();
  for (let e = 0; e < ENDPOINTS; e++) {
    const path = `/hooks/${e}`;
    const created = await fetch(`${base}/webhook-endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}${path}` }),
    });
    if (created.status !== 201) throw new Error(`creating an endpoint answered ${created.status}: ${await created.text()}`);
    secrets.set(path, (await created.json()).secret);
  }
  receiver.setSecrets(secrets);

  const flips = new Map();
  /** Changes a document's category to the other one; returns the new version and when the API answered. */
  async function update(document) {
    const flip = (flips.get(document) ?? 0) + 1;
    flips.set(document, flip);
    const response = await fetch(`${base}/companies/${tenant.companyId}/documents/${document}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ category_id: categories[flip % 2] }),
    });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`update answered ${response.status}: ${JSON.stringify(body)}`);
    return { key: `${document}:${body.version}`, answeredAt: performance.now() };
  }

  // 1. Latency at low load.
  const latencies = [];
  const low = [];
  for (let i = 0; i < LOW_UPDATES; i++) {
    low.push(await update(documents[i % documents.length]));
    await new Promise((r) => setTimeout(r, 50));
  }
  await waitUntil(() => receiver.total >= LOW_UPDATES * ENDPOINTS, 'the low-load deliveries');
  for (const { key, answeredAt } of low) for (const at of receiver.arrivals.get(key)) latencies.push(at - answeredAt);

  // 2. Throughput.
  const before = receiver.total;
  const workerCpuBefore = cpuMs(worker.pid);
  const started = performance.now();
  let next = 0;
  let lastAnswer = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      while (next < UPDATES) {
        next++;
        const doc = documents[(c + CONNECTIONS * Math.floor(next / CONNECTIONS)) % documents.length];
        lastAnswer = Math.max(lastAnswer, (await update(doc)).answeredAt);
      }
    }),
  );
  const apiSeconds = (lastAnswer - started) / 1000;
  const deliveredByLastAnswer = receiver.total;
  const expected = before + UPDATES * ENDPOINTS;
  await waitUntil(() => receiver.total >= expected, 'the burst deliveries');
  const workerCpu = cpuMs(worker.pid) - workerCpuBefore;
  const seconds = (receiver.last - started) / 1000;
  const drain = (receiver.last - lastAnswer) / 1000;

  console.log(
    JSON.stringify(
      {
        endpoints: ENDPOINTS,
        low_load: {
          updates: LOW_UPDATES,
          deliveries: latencies.length,
          latency_ms: { p50: +quantile(latencies, 0.5).toFixed(1), p99: +quantile(latencies, 0.99).toFixed(1) },
        },
        burst: {
          updates: UPDATES,
          deliveries: UPDATES * ENDPOINTS,
          api_updates_per_second: Math.round(UPDATES / apiSeconds),
          deliveries_per_second: Math.round((UPDATES * ENDPOINTS) / seconds),
          seconds: +seconds.toFixed(2),
          drain_after_last_answer_seconds: +drain.toFixed(2),
          // Once the API is idle, the worker has the machine to itself: its rate draining what is left.
          drain_deliveries_per_second: drain > 0.5 ? Math.round((expected - deliveredByLastAnswer) / drain) : null,
          worker_cpu_ms_per_delivery: +(workerCpu / (UPDATES * ENDPOINTS)).toFixed(3),
        },
        refused_signatures: receiver.refused,
      },
      null,
      2,
    ),
  );
} finally {
  api.kill();
  worker.kill();
  await receiver.close();
  await db.destroy();
}
