import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import { createTenant, startApi, type TestApi } from '../../../test/api.js';
import { rawConnection } from '../../../test/raw-connection.js';
import { createApi } from '../../app.js';
import { loadConfig } from '../../config/config.js';
import { STOP_TIMEOUT_MS } from '../../processes/supervisor.js';

/** Whether `promise` settles within `ms`: a shutdown that hangs fails the test instead of holding it. */
const within = (ms: number, promise: Promise<unknown>) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

/** The head of a request whose body is `length` bytes long: the server waits for them before it answers. */
const head = (key: string, length: number) =>
  `POST /api/v1/webhook-endpoints HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('an API process that stops', () => {
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    api = await startApi();
    key = (await createTenant(api)).key;
  });

  afterAll(() => api.close());

  async function listening(shutdownGraceMs: number): Promise<NestFastifyApplication> {
    const app = await createApi({ ...api.config, shutdownGraceMs });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  }

  it('answers a request in flight with Connection: close, then closes its connection at once, not when its client leaves', async () => {
    const app = await listening(20_000);
    const body = JSON.stringify({ url: 'http://127.0.0.1:9/hook' });
    const client = await rawConnection(app);
    client.socket.write(head(key, Buffer.byteLength(body)) + body.slice(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 100));

    const stopping = app.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.socket.write(body.slice(5));
    // Far inside the 20 s of grace: the connection is closed once its answer is sent.
    const stopped = await within(5_000, Promise.all([stopping, client.closed]));
    client.socket.destroy();
    await stopping;

    expect(stopped).toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 201 /);
    // Begun after the stop, the answer tells the client not to send another request on the connection.
    expect(client.received()).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('closes a connection still busy SHUTDOWN_GRACE_MS after the stop began, and completes its shutdown', async () => {
    const app = await listening(500);
    // A body that never ends: without the grace, the server would wait for it until REQUEST_TIMEOUT_MS (30 s).
    const client = await rawConnection(app);
    client.socket.write(head(key, 1000) + '{"url":');
    await new Promise((resolve) => setTimeout(resolve, 100));

    const started = Date.now();
    const stopping = app.close();
    const stopped = await within(5_000, Promise.all([stopping, client.closed]));
    const took = Date.now() - started;
    client.socket.destroy();
    await stopping;

    expect(stopped).toBe(true);
    expect(took).toBeGreaterThanOrEqual(450);
    expect(client.received()).toBe('');
  });

  it('SHUTDOWN_GRACE_MS is an integer of milliseconds, shorter than what stops the process harder', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(25_000);
    // npm start's supervisor and docker/compose.yml leave the grace and 5 s more for the rest of the shutdown.
    expect(STOP_TIMEOUT_MS).toBeGreaterThanOrEqual(loadConfig({}).shutdownGraceMs + 5_000);
    const composeGrace = /^ {2}stop_grace_period: (\d+)s$/m.exec(readFileSync('docker/compose.yml', 'utf8'));
    expect(Number(composeGrace?.[1]) * 1000).toBeGreaterThanOrEqual(loadConfig({}).shutdownGraceMs + 5_000);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '10s' })).toThrow('SHUTDOWN_GRACE_MS must be an integer from 0 to 600000, got "10s"');
  });
});
