import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import { expectError } from '../../../test/expect.js';
import { PgBouncer } from '../../../test/pgbouncer.js';
import { PrivateRedis } from '../../../test/redis-server.js';
import { startApi, type TestApi } from '../../../test/api.js';
import { rawConnection } from '../../../test/raw-connection.js';
import { createApi } from '../../app.js';
import { READINESS_PATH } from '../../config/api-version.js';
import { READY_CHECK_TIMEOUT_MS } from './health.js';

/** Asks `path` until `done` holds for the answer (checks are reused for a second), for at most 10 s. */
async function until(api: TestApi, path: string, done: (response: { status: number; body: unknown }) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await api.http.get(path);
    if (done(response) || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('health probes', () => {
  let redis: PrivateRedis;
  let bouncer: PgBouncer;
  let api: TestApi;

  beforeAll(async () => {
    [redis, bouncer] = await Promise.all([PrivateRedis.start(), PgBouncer.start()]);
    api = await startApi({ REDIS_URL: redis.url, LOG_LEVEL: 'info' }, { pooler: bouncer, captureLogs: true });
  });

  afterAll(async () => {
    await api?.close();
    await Promise.all([redis?.stop(), bouncer?.stop()]);
  });

  it('answer liveness and readiness without a key, outside the OpenAPI document, and leave no access line when all is well', async () => {
    const live = await api.http.get('/healthz').expect(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');
    await api.http.head('/healthz').expect(200);
    const ready = await api.http.get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.headers['x-request-id']).toBeDefined();
    // Not part of the integration API: its document does not list them, and they take no other method.
    const { body: document } = await api.http.get('/api/v1/openapi.json').expect(200);
    expect(Object.keys(document.paths).filter((path) => /health|ready/.test(path))).toEqual([]);
    expectError(await api.http.post('/readyz'), 405, 'method_not_allowed');
    expect(api.logs.filter((line) => line.msg === 'request' && /^\/(healthz|readyz)$/.test(String(line.path)) && line.status === 200)).toEqual([]);
    // The API's own routes still leave theirs.
    expect(api.logs.some((line) => line.msg === 'request' && line.path === '/api/v1/openapi.json')).toBe(true);
  });

  it('stays ready without Redis, which it reports, since the API serves on without it', async () => {
    await redis.stop();
    try {
      const without = await until(api, '/readyz', (r) => (r.body as { checks?: { redis?: string } }).checks?.redis === 'unavailable');
      expect(without.status).toBe(200);
      expect(without.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'unavailable' } });
    } finally {
      await redis.restart();
    }
    const back = await until(api, '/readyz', (r) => (r.body as { checks?: { redis?: string } }).checks?.redis === 'ok');
    expect(back.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
  });

  it('answers 503 within its time limit while the database does not answer, and ready again once it does', async () => {
    // PAUSE: PgBouncer holds every new query, as a database that hangs would.
    await bouncer.admin('PAUSE');
    let paused: Awaited<ReturnType<typeof until>>;
    const started = Date.now();
    try {
      paused = await until(api, '/readyz', (r) => r.status === 503);
    } finally {
      await bouncer.admin('RESUME');
    }
    // A probe waits for the query at most READY_CHECK_TIMEOUT_MS, then says so (after up to a second of the last
    // check's result): far from a hang, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(READY_CHECK_TIMEOUT_MS + 6_000);
    expectError(paused, 503, 'service_unavailable', undefined, 'This API process cannot reach its database (PostgreSQL).');
    expect(paused.headers['retry-after']).toBe('1');
    // Unlike a 200, a failing probe leaves its access line.
    expect(api.logs.some((line) => line.msg === 'request' && line.path === '/readyz' && line.status === 503)).toBe(true);
    const back = await until(api, '/readyz', (r) => r.status === 200);
    expect(back.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    expect((await api.http.get('/healthz')).status).toBe(200);
  });

  it('is what docker/compose.yml probes the API with, and compose starts again what dies', () => {
    const compose = readFileSync('docker/compose.yml', 'utf8');
    const api = compose.slice(compose.indexOf('\n  api:\n'), compose.indexOf('\n  worker:\n'));
    expect(api).toContain(`fetch('http://127.0.0.1:3000${READINESS_PATH}')`);
    expect(compose).toMatch(/^x-app: &app\n(?: {2}.*\n)*? {2}restart: unless-stopped$/m);
  });

  it('answers 503 stopping to a probe that arrives while the process stops', async () => {
    // Its own API, quiet: the suite's captures its log lines, this one would write them to the test's output.
    const app: NestFastifyApplication = await createApi({ ...api.config, logLevel: 'silent' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const client = await rawConnection(app);
    // The probe's request begun before the stop (its connection busy, so kept), ended after it.
    client.socket.write('GET /readyz HTTP/1.1\r\nHost: localhost\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.socket.write('\r\n');
    await client.closed;
    await stopping;
    expect(client.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(client.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(client.received()).toContain('"code":"service_unavailable"');
    expect(client.received()).toContain('This API process is stopping; send requests to another.');
  });
});
