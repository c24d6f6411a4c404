// `npm run test:postman`: the portal's Postman collection as a test suite. It starts the built API and worker on a
// database, ports and Redis prefix of their own with the demo company, a webhook receiver on 127.0.0.1, and runs the
// collection the built portal serves with newman twice in a row against them: both runs must end with 0 failures (the
// second, which starts with the variables the first left, proves the suite re-runs against the same data without a
// 409). Everything it started is stopped, also when
// a run fails. Needs `npm run build` and `npm run build -w portal` first (`npm test` runs them before).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequestHandler } from '@remix-run/node';
import newman from 'newman';
import pg from 'pg';
import { Redis } from 'ioredis';
import { adminClient, benchDatabaseUrl, freePort, freshDatabase, startApi, startWorker } from '../bench/support.mjs';
import { DEFAULTS } from '../dist/server/src/config/config.js';

const RUNS = 2;
const PORTAL_BUILD = 'portal/build/server/index.js';

/** A receiver that takes every webhook (204), as an integrator's endpoint on the developer's machine would. */
async function startReceiver() {
  const server = createServer((request, response) => request.resume().on('end', () => response.writeHead(204).end()));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/webhooks/flusso`, close: () => new Promise((resolve) => server.close(resolve)) };
}

function demoCredentials(env) {
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, ['dist/server/src/cli.js', 'demo', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(cli);
    let out = '';
    cli.stdout.on('data', (chunk) => (out += chunk));
    cli.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`loading the demo company failed (exit code ${code})`))));
  });
}

async function answering(url) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within 60 seconds`);
}

/** The collection exactly as the portal serves it for download. */
async function servedCollection(env) {
  Object.assign(process.env, { FLUSSO_HOST_DEVELOPMENT: env.FLUSSO_HOST_DEVELOPMENT });
  const handle = createRequestHandler(await import(`../${PORTAL_BUILD}`), 'production');
  const response = await handle(new Request('http://localhost/downloads/flusso.postman_collection.json'));
  if (response.status !== 200) throw new Error(`the portal answered ${response.status} for the Postman collection`);
  return response.json();
}

/** Runs the collection; the summary also holds the collection variables as the last script left them. */
function run(collection, environment) {
  let variables = collection.variable;
  return new Promise((resolve, reject) =>
    newman
      .run({ collection, environment, reporters: [], timeoutRequest: 30_000 }, (error, summary) =>
        error ? reject(error) : resolve(Object.assign(summary, { variables })),
      )
      .on('script', (_error, { execution }) => {
        variables = execution.collectionVariables.values.map(({ key, value }) => ({ key, value, type: 'string' }));
      }),
  );
}

function report(index, summary) {
  const { stats, failures } = summary.run;
  // Items are the collection's requests; the waits' repeated reads are counted apart.
  const requests = `${stats.items.total} requests (+${stats.requests.total - stats.items.total} waiting for the worker)`;
  const assertions = `${stats.assertions.total} assertions (${stats.assertions.failed} failed)`;
  console.log(`postman suite, run ${index}: ${requests}, ${assertions}, ${failures.length} failures`);
  for (const failure of failures) console.log(`  ✗ ${failure.source?.name ?? '?'}: ${failure.error.test ?? failure.error.name}: ${failure.error.message}`);
  // What the API said where a call failed: the error's code and detail tell why.
  for (const execution of summary.run.executions.filter((e) => e.assertions?.some((a) => a.error))) {
    console.log(
      `  ${execution.item.name}: ${execution.request.method} ${execution.request.url.toString()} → ${execution.response?.code} ${execution.response?.stream?.toString().slice(0, 400)}`,
    );
  }
  return failures.length;
}

/**
 * The runs leave no key of theirs usable: each revokes the key it created and the one rolling it made. Only the demo
 * company's key (the one the suite ran with) may still authenticate.
 */
async function keysLeft(demoKey) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT name, lookup FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AND NOT starts_with($1, lookup)`,
      [demoKey],
    );
    for (const key of rows) console.log(`  ✗ the key ${key.lookup} (${key.name}) the suite made is still usable`);
    return rows.length;
  } finally {
    await db.end();
  }
}

async function clearRedis(prefix) {
  const redis = new Redis(process.env.REDIS_URL ?? DEFAULTS.REDIS_URL, { lazyConnect: true });
  await redis.connect();
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 })) if (keys.length) await redis.unlink(...keys);
  await redis.quit();
}

for (const file of ['dist/server/src/main.js', PORTAL_BUILD]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build && npm run build -w portal first`);
}

const databaseUrl = benchDatabaseUrl(`flusso_postman_${process.pid}`);
const mailDir = `var/postman-${process.pid}`;
const redisPrefix = `flusso-postman-${randomBytes(4).toString('hex')}`;
const port = await freePort();
const apiUrl = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_PREFIX: redisPrefix,
  LOG_LEVEL: 'error',
  FLUSSO_ENV: 'development',
  FLUSSO_HOST_DEVELOPMENT: apiUrl,
  MAIL_OUTBOX_DIR: mailDir,
};
const started = [];
let receiver;
let failed = 0;
let stopping;
/** Stops the processes and the receiver, drops the database, the Redis keys and the e-mails: once, however it ends. */
const stopAll = () =>
  (stopping ??= (async () => {
    for (const child of started) child.kill('SIGTERM');
    await Promise.all(started.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
    await receiver?.close();
    const admin = await adminClient(databaseUrl);
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
    await clearRedis(redisPrefix);
    rmSync(mailDir, { recursive: true, force: true });
  })());
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
try {
  await (await freshDatabase(databaseUrl)).destroy();
  const demo = await demoCredentials(env);
  receiver = await startReceiver();
  started.push(startApi(env, port), startWorker(env));
  await answering(`${apiUrl}/api/v1/openapi.json`);
  const collection = await servedCollection(env);
  const environment = {
    name: 'Flusso suite',
    values: [
      { key: 'baseUrl', value: apiUrl },
      { key: 'apiKey', value: demo.api_key },
      { key: 'company_id', value: demo.company_id },
      { key: 'webhookUrl', value: receiver.url },
    ],
  };
  // Each run after the first starts from the collection as the one before left it, its variables included, as the
  // Postman app keeps them from one run to the next.
  let current = collection;
  for (let index = 1; index <= RUNS; index++) {
    const summary = await run(current, environment);
    failed += report(index, summary);
    current = { ...collection, variable: summary.variables };
  }
  failed += await keysLeft(demo.api_key);
} finally {
  await stopAll();
}
if (failed > 0) {
  console.error(`postman suite: ${failed} failures`);
  process.exit(1);
}
