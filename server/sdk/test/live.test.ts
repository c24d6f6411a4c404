import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Flusso, FlussoError, type RetryEvent, verifyWebhook, WebhookVerificationError } from '../src/index.js';

/**
 * The SDK against the live API: the built API and worker (`npm run build` first) on a database and Redis prefix of
 * this test's own, with the demo company and its key, as test-support/postman-suite.mjs starts them. The API's rate
 * limit is lowered to RATE_LIMIT requests per RATE_WINDOW seconds, so that a burst of creates meets real 429s: a window
 * of two seconds, so that a burst admitted slowly by a loaded machine still falls within two windows (with one second,
 * 25 creates spread over three windows met no limit at all).
 */
const RATE_LIMIT = 10;
const RATE_WINDOW = 2;
const BURST = 25;
const DATABASE = `flusso_sdk_${process.pid}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const databaseUrl = Object.assign(new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/flusso'), {
  pathname: `/${DATABASE}`,
}).toString();
const redisPrefix = `flusso-sdk-test-${randomBytes(4).toString('hex')}`;
/** The quickstart program of the portal's Client libraries page, run as an integrator would (`@flusso/sdk` built). */
const QUICKSTART = 'portal/app/content/examples/sdk/quickstart.ts';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the client sent and got, attempt by attempt: the transport the SDK is given, passing everything through. */
interface Exchange {
  method: string;
  url: string;
  idempotencyKey: string | null;
  status?: number;
  replayed?: string | null;
}

const children: ChildProcess[] = [];
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  DATABASE_URL: databaseUrl,
  REDIS_PREFIX: redisPrefix,
  LOG_LEVEL: 'error',
  FLUSSO_ENV: 'development',
  RATE_LIMIT_POINTS: String(RATE_LIMIT),
  RATE_LIMIT_WINDOW_SECONDS: String(RATE_WINDOW),
  WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s',
  MAIL_OUTBOX_DIR: `var/sdk-${process.pid}`,
  F24_WARM_UP: 'false',
};

function run(args: string[], extra: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, args, { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return child;
}

function output(child: ChildProcess): Promise<string> {
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit code ${code}`)))));
}

function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}

async function answering(url: string): Promise<void> {
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

describe('the SDK against the live API', () => {
  let baseUrl: string;
  let apiKey: string;
  let companyId: string;
  let receiver: Server;
  const deliveries: Delivery[] = [];
  const exchanges: Exchange[] = [];
  const retries: RetryEvent[] = [];
  /** Every request goes to the real API; `loseNext` drops one answer after the API gave it, as a broken connection would. */
  const transport = { loseNext: undefined as ((request: Request) => boolean) | undefined };
  let flusso: Flusso;

  beforeAll(async () => {
    if (!existsSync('dist/server/src/main.js')) throw new Error('dist/server/src/main.js is missing: run npm run build first');
    const demo = JSON.parse(await output(run(['dist/server/src/cli.js', 'demo', '--json']))) as { api_key: string; company_id: string };
    apiKey = demo.api_key;
    companyId = demo.company_id;
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}/api/v1`;
    run(['dist/server/src/main.js'], { PORT: String(port), HOST: '127.0.0.1', FLUSSO_HOST_DEVELOPMENT: `http://127.0.0.1:${port}` });
    run(['dist/server/src/worker.js']);
    await answering(`${baseUrl}/openapi.json`);
    flusso = new Flusso({
      apiKey,
      baseUrl,
      maxRetries: 5,
      onRetry: (event) => retries.push(event),
      fetch: async (request) => {
        const exchange: Exchange = { method: request.method, url: request.url, idempotencyKey: request.headers.get('idempotency-key') };
        exchanges.push(exchange);
        const lose = transport.loseNext?.(request);
        const response = await fetch(request);
        Object.assign(exchange, { status: response.status, replayed: response.headers.get('idempotent-replayed') });
        if (lose) {
          transport.loseNext = undefined;
          await response.body?.cancel();
          throw new TypeError('fetch failed: the connection closed before the answer arrived');
        }
        return response;
      },
    });
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
    await new Promise((resolve) => receiver?.close(resolve));
    const admin = new pg.Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
    await admin.end();
    const redis = new Redis(REDIS_URL);
    for await (const keys of redis.scanStream({ match: `${redisPrefix}*`, count: 1000 }))
      if ((keys as string[]).length) await redis.unlink(...(keys as string[]));
    await redis.quit();
  });

  const prefix = `sdk-${randomBytes(3).toString('hex')}`;
  let created: string[] = [];

  it(`creates ${BURST} categories at once past a limit of ${RATE_LIMIT} per ${RATE_WINDOW} s: each 429 waits its Retry-After, each POST keeps one Idempotency-Key`, async () => {
    const results = await Promise.all(Array.from({ length: BURST }, (_, index) => flusso.createCategory(companyId, { name: `${prefix}-${index}` })));
    created = results.map((category) => category.id);
    expect(new Set(created).size).toBe(BURST);

    const limited = retries.filter((event) => event.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(BURST - 2 * RATE_LIMIT);
    for (const event of limited) {
      expect(event.retryAfterMs).toBeGreaterThanOrEqual(1000);
      expect(event.delayMs).toBe(event.retryAfterMs);
    }
    // Every attempt of one create carried the same key, and each create had a key of its own.
    const posts = exchanges.filter((exchange) => exchange.method === 'POST');
    const attemptsByKey = new Map<string | null, number[]>();
    for (const exchange of posts) attemptsByKey.set(exchange.idempotencyKey, [...(attemptsByKey.get(exchange.idempotencyKey) ?? []), exchange.status!]);
    expect(attemptsByKey.size).toBe(BURST);
    expect([...attemptsByKey.keys()].every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
    expect(posts.length).toBe(BURST + limited.length);
    for (const statuses of attemptsByKey.values()) expect(statuses.at(-1)).toBe(201);
    // The API created each category once: the iterator below finds exactly these.
  });

  it('iterates a list page after page with the cursor, and finds every item exactly once', async () => {
    const before = exchanges.length;
    const seen: string[] = [];
    for await (const category of flusso.listCategories(companyId, { 'filter[name__ilike]': `${prefix}-%`, page_size: 4, sort: ['name'] })) {
      seen.push(category.id);
    }
    expect(seen.sort()).toEqual([...created].sort());
    const pages = exchanges.slice(before).filter((exchange) => exchange.status === 200);
    expect(pages.length).toBe(Math.ceil(BURST / 4));
    expect(pages.slice(1).every((exchange) => new URL(exchange.url).searchParams.has('cursor'))).toBe(true);

    const first = await flusso.listCategories(companyId, { 'filter[name__ilike]': `${prefix}-%`, page_size: 4 });
    expect(first.data).toHaveLength(4);
    expect(first.page.cursor).toEqual(expect.any(String));
  });

  it("iterates the integrator-wide events (listAllEvents) as the company's, to the end of what has committed", async () => {
    const ofCompany: string[] = [];
    for await (const event of flusso.listEvents(companyId, { page_size: 7 })) ofCompany.push(event.id);
    expect(ofCompany.length).toBeGreaterThan(7);
    const all: Array<{ id: string; company_id: string | null }> = [];
    for await (const event of flusso.listAllEvents({ 'filter[company_id__in]': [companyId], page_size: 5 })) all.push(event);
    // Read after the company's list: the same events, and any committed since then after them.
    expect(all.slice(0, ofCompany.length).map((event) => event.id)).toEqual(ofCompany);
    expect(new Set(all.map((event) => event.company_id))).toEqual(new Set([companyId]));
  });

  it('sends list parameters comma-separated (style form, explode false), as the API reads them', async () => {
    const statuses = ['SENT', 'DELIVERED'] as const;
    const pages = [];
    for await (const page of flusso
      .listDocuments(companyId, { 'filter[status__in]': [...statuses], expand: ['flows', 'category'], sort: ['-creation_date'], page_size: 2 })
      .pages()) {
      pages.push(page);
      if (pages.length === 3) break;
    }
    const documents = pages.flatMap((page) => page.data);
    expect(pages).toHaveLength(3);
    expect(documents).toHaveLength(6);
    expect(documents.every((document) => (statuses as readonly string[]).includes(document.status) && Array.isArray(document.flows))).toBe(true);
    const url = new URL(exchanges.at(-1)!.url);
    expect(url.searchParams.get('filter[status__in]')).toBe('SENT,DELIVERED');
    expect(url.searchParams.getAll('expand')).toEqual(['flows,category']);
  });

  it('retries a POST whose answer was lost with the same Idempotency-Key: the API replays its first answer and creates nothing twice', async () => {
    const before = exchanges.length;
    transport.loseNext = (request) => request.method === 'POST';
    const category = await flusso.createCategory(companyId, { name: `${prefix}-lost` });
    const attempts = exchanges.slice(before);
    expect(attempts.map((attempt) => [attempt.status, attempt.replayed])).toEqual([
      [201, null],
      [201, 'true'],
    ]);
    expect(attempts[1].idempotencyKey).toBe(attempts[0].idempotencyKey);
    const named = await flusso.listCategories(companyId, { 'filter[name]': `${prefix}-lost` }).all();
    expect(named.map((item) => item.id)).toEqual([category.id]);

    // A key the caller gives is the key sent: the same call again gets the same category.
    const idempotencyKey = randomUUID();
    const once = await flusso.createCategory(companyId, { name: `${prefix}-keyed` }, { idempotencyKey });
    const again = await flusso.createCategory(companyId, { name: `${prefix}-keyed` }, { idempotencyKey });
    expect(again.id).toBe(once.id);
    expect(exchanges.at(-1)).toMatchObject({ idempotencyKey, replayed: 'true' });
  });

  it("throws the API's errors as FlussoError, with the status, the code and the request id", async () => {
    const error = await flusso.getDocument(companyId, randomUUID()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlussoError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
    const refused = (await flusso.listDocuments(companyId, { 'filter[status__in]': ['PAYED' as 'SENT'] }).then(
      () => undefined,
      (caught: unknown) => caught,
    )) as FlussoError;
    expect(refused).toBeInstanceOf(FlussoError);
    expect(refused.status).toBe(400);
    expect(refused.errors[0]).toMatchObject({ code: 'invalid_query_parameter', source: { pointer: '/query/filter[status__in]' } });
    expect(refused.body?.meta.request_id).toBe(refused.requestId);
  });

  it("runs the portal's SDK quickstart (Client libraries) against the demo company, step 1 to 7", async () => {
    const program = run(['--import', 'tsx', QUICKSTART], { FLUSSO_API_KEY: apiKey, FLUSSO_BASE_URL: baseUrl });
    const printed = await output(program);
    expect(printed.split('\n').map((line) => line.split(' ')[0])).toEqual(expect.arrayContaining(['1.', '2.', '3.', '4.', '5.', '6.', '7.']));
    expect(printed).toMatch(/^6\. flow \S+: PAID, /m);
    expect(printed).toMatch(/^7\. reconciliation deleted; the flow is TO_PAY again$/m);
  });

  it("verifies the worker's signed delivery, and refuses it altered, under another secret or too old", async () => {
    const endpoint = await flusso.createWebhookEndpoint({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/flusso` });
    const [document] = (await flusso.listDocuments(companyId, { page_size: 1 })).data;
    await flusso.updateDocument(companyId, document.id, { notes: `${prefix} webhook` });
    for (let waited = 0; deliveries.length === 0 && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(deliveries.length).toBeGreaterThan(0);
    const { headers, body } = deliveries[0];

    const event = verifyWebhook(body, headers as Record<string, string>, endpoint.secret);
    expect(event).toMatchObject({ event: 'document.updated', company_id: companyId, data: { id: document.id } });
    // As the text of the body too, and with the Headers of a fetch-style server.
    expect(verifyWebhook(body.toString('utf8'), new Headers(headers as Record<string, string>), endpoint.secret).id).toBe(event.id);

    const altered = Buffer.from(body.toString('utf8').replace(`${prefix} webhook`, `${prefix} forged`));
    expect(() => verifyWebhook(altered, headers as Record<string, string>, endpoint.secret)).toThrow(WebhookVerificationError);
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    expect(() => verifyWebhook(body, headers as Record<string, string>, other)).toThrow(WebhookVerificationError);
    // During a rotation both secrets are given: either one's signature is enough.
    expect(verifyWebhook(body, headers as Record<string, string>, [other, endpoint.secret]).id).toBe(event.id);
    const signedAt = Number(headers['webhook-timestamp']) * 1000;
    expect(() => verifyWebhook(body, headers as Record<string, string>, endpoint.secret, { now: signedAt + 301_000 })).toThrow(/seconds old/);
    expect(verifyWebhook(body, headers as Record<string, string>, endpoint.secret, { now: signedAt + 60_000, toleranceSeconds: 120 }).id).toBe(event.id);
  });
});
