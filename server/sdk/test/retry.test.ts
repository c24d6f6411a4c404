import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Flusso, FlussoError, type RetryEvent } from '../src/index.js';
import { retryAfterMs } from '../src/retry.js';

/**
 * The retries where the live API cannot be made to answer as needed (a 503 without Retry-After, a Retry-After of an
 * hour, a connection cut): a real HTTP server of the test's own plays the other side, request by request.
 */
type Answer = (request: IncomingMessage, response: ServerResponse) => void;

const error =
  (status: number, code: string, headers: Record<string, string> = {}): Answer =>
  (_request, response) =>
    response
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ errors: [{ code, title: code, detail: null }], meta: { request_id: `req-${code}` } }));
const created: Answer = (_request, response) =>
  response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'c1', name: 'Utenze' }));
const cut: Answer = (request) => request.socket.destroy();

describe('retries', () => {
  let server: Server;
  let baseUrl: string;
  let answers: Answer[] = [];
  const seen: Array<{ method: string; key: string | undefined; body: string; type?: string; url?: string }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const key = request.headers['idempotency-key'] as string | undefined;
        seen.push({ method: request.method!, key, body, type: request.headers['content-type'], url: request.url });
        (answers.shift() ?? error(500, 'unexpected'))(request, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  function client(events: RetryEvent[], maxRetries = 3) {
    seen.length = 0;
    return new Flusso({ apiKey: 'fls_dev_x', baseUrl, maxRetries, initialDelayMs: 40, maxDelayMs: 5_000, onRetry: (event) => events.push(event) });
  }

  it('backs off exponentially with jitter on a 503 without Retry-After, and sends the same body and key each time', async () => {
    const events: RetryEvent[] = [];
    answers = [error(503, 'service_unavailable'), error(503, 'service_unavailable'), created];
    const category = await client(events).createCategory('co', { name: 'Utenze' });
    expect(category.id).toBe('c1');
    expect(events.map((event) => event.status)).toEqual([503, 503]);
    expect(events[0].delayMs).toBeGreaterThanOrEqual(20);
    expect(events[0].delayMs).toBeLessThanOrEqual(40);
    expect(events[1].delayMs).toBeGreaterThanOrEqual(40);
    expect(events[1].delayMs).toBeLessThanOrEqual(80);
    expect(new Set(seen.map((request) => request.key)).size).toBe(1);
    expect(seen.map((request) => request.body)).toEqual(Array(3).fill('{"name":"Utenze"}'));
  });

  it('gives up after maxRetries, throwing the last answer as FlussoError', async () => {
    const events: RetryEvent[] = [];
    answers = Array.from({ length: 3 }, () => error(429, 'too_many_requests', { 'retry-after': '0' }));
    const thrown = await client(events, 2)
      .listCategories('co')
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(thrown).toBeInstanceOf(FlussoError);
    expect(thrown).toMatchObject({ status: 429, code: 'too_many_requests', requestId: 'req-too_many_requests' });
    expect(seen).toHaveLength(3);
    expect(events.map((event) => event.delayMs)).toEqual([0, 0]);
  });

  it('does not wait for a Retry-After longer than maxDelayMs: the 429 is thrown at once', async () => {
    const events: RetryEvent[] = [];
    answers = [error(429, 'too_many_requests', { 'retry-after': '3600' })];
    await expect(client(events).getCategory('co', 'c1')).rejects.toMatchObject({ status: 429 });
    expect(events).toEqual([]);
  });

  it('retries 409 idempotency_key_in_progress, and no other 4xx', async () => {
    const events: RetryEvent[] = [];
    answers = [error(409, 'idempotency_key_in_progress', { 'retry-after': '0' }), created];
    await expect(client(events).createCategory('co', { name: 'Utenze' })).resolves.toMatchObject({ id: 'c1' });
    answers = [error(409, 'conflict')];
    await expect(client(events).createCategory('co', { name: 'Utenze' })).rejects.toMatchObject({ status: 409, code: 'conflict' });
    expect(seen).toHaveLength(1);
  });

  it('retries a cut connection for a GET and a POST (it has a key), never for a PATCH', async () => {
    const events: RetryEvent[] = [];
    answers = [cut, (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"c1","name":"x"}')];
    await expect(client(events).getCategory('co', 'c1')).resolves.toMatchObject({ id: 'c1' });
    answers = [cut, created];
    await expect(client(events).createCategory('co', { name: 'Utenze' })).resolves.toMatchObject({ id: 'c1' });
    expect(seen[0].key).toBe(seen[1].key);
    answers = [cut];
    await expect(client(events).updateCategory('co', 'c1', { name: 'x' })).rejects.toThrow('fetch failed');
    expect(seen).toHaveLength(1);
  });

  it('sends a file body as it is, with its media type, and gives a file answer as bytes', async () => {
    const xml = '<?xml version="1.0"?><p:FatturaElettronica versione="FPR12"/>';
    answers = [created];
    await client([]).createInvoice('co', xml, { contentType: 'application/xml', query: { issue: true } });
    expect(seen[0]).toMatchObject({ body: xml, type: 'application/xml', url: '/api/v1/companies/co/documents/invoice?issue=true' });
    answers = [(_request, response) => response.writeHead(200, { 'content-type': 'application/xml' }).end(xml)];
    const file = await client([]).getPaymentBatchFile('co', 'b1');
    expect(Buffer.from(file).toString('utf8')).toBe(xml);
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
