import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../../test-support/chromium-args.mjs';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { Fixtures } from '../../test/fixtures.js';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './http/cors.js';

/** What a page's fetch() saw: the status, the headers the browser let the script read, the body. */
interface Seen {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/**
 * CORS as a browser enforces it: the real API listening on one origin, a page served from another, and Chromium
 * running fetch() in that page. A method or header the preflight does not allow makes fetch() fail ("Failed to fetch")
 * before the request is sent; a response header not exposed reads as null.
 */
describe('CORS, from a browser on another origin', () => {
  let api: TestApi;
  let rossi: Tenant;
  let apiOrigin: string;
  let page: Page;
  let browser: Browser;
  let site: Server;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api);
    await api.app.listen(0, '127.0.0.1');
    apiOrigin = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    // The other origin: `localhost` on another port (another host name and port than the API's).
    site = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ERP</title>'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await api?.close();
  });

  /** fetch() in the page; a network or CORS failure comes back as `{error}`. */
  const call = (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
    page.evaluate(
      async ({ url, method, body, headers, read }) => {
        try {
          const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
          const text = await response.text();
          return {
            status: response.status,
            headers: Object.fromEntries(read.map((name) => [name, response.headers.get(name)])),
            body: text ? JSON.parse(text) : null,
          };
        } catch (error) {
          return { error: String(error) };
        }
      },
      {
        url: `${apiOrigin}${path}`,
        method,
        body: options.body,
        headers: { Authorization: `Bearer ${rossi.key}`, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
        read: [...CORS_EXPOSED_HEADERS],
      },
    ) as Promise<Seen | { error: string }>;

  it('PATCHes a document and a flow, reading the rate-limit and request-id headers', async () => {
    const fixtures = new Fixtures(api.db, rossi.companyId);
    const document = await fixtures.document();
    const flow = await fixtures.flow(document);
    const base = `/api/v1/companies/${rossi.companyId}/documents/${document.id}`;
    const patched = await call('PATCH', base, { body: { category_id: null }, headers: { 'X-Request-Id': 'erp-patch-1' } });
    expect(patched).toMatchObject({ status: 200, body: { id: document.id }, headers: { 'x-request-id': 'erp-patch-1', 'x-ratelimit-limit': '600' } });
    expect(Number((patched as Seen).headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
    const flowPatched = await call('PATCH', `${base}/flows/${flow.id}`, { body: { payment_method: null } });
    expect(flowPatched).toMatchObject({ status: 200, body: { id: flow.id, payment_method: null } });
  });

  it('DELETEs a reconciliation', async () => {
    const fixtures = new Fixtures(api.db, rossi.companyId);
    const document = await fixtures.document();
    const reconciliation = await fixtures.reconciliation(await fixtures.flow(document), await fixtures.transaction(await fixtures.account()));
    const path = `/api/v1/companies/${rossi.companyId}/reconciliations/${reconciliation.id}`;
    expect(await call('DELETE', path)).toMatchObject({ status: 204, body: null });
    expect(await call('DELETE', path)).toMatchObject({ status: 404, body: { errors: [{ code: 'not_found' }] } });
  });

  it('POSTs with an Idempotency-Key and reads idempotent-replayed; reads allow on a 405', async () => {
    const path = `/api/v1/companies/${rossi.companyId}/categories`;
    const headers = { 'Idempotency-Key': 'erp-category-1' };
    const first = await call('POST', path, { body: { name: 'Affitti' }, headers });
    const again = await call('POST', path, { body: { name: 'Affitti' }, headers });
    expect(first).toMatchObject({ status: 201, headers: { 'idempotent-replayed': null } });
    expect(again).toMatchObject({ status: 201, body: (first as Seen).body, headers: { 'idempotent-replayed': 'true' } });
    expect(await call('DELETE', path)).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD, POST' } });
  });

  it('answers the preflight for every method and request header the API has', async () => {
    const document = (await api.http.get('/api/v1/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const methods = new Set(Object.values(document.paths).flatMap((item) => Object.keys(item).map((m) => m.toUpperCase())));
    const preflight = await api.http
      .options(`/api/v1/companies/${rossi.companyId}/reconciliations`)
      .set('Origin', 'https://erp.example')
      .set('Access-Control-Request-Method', 'DELETE')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key, x-request-id')
      .expect(204);
    const allowed = preflight.headers['access-control-allow-methods'].split(',').map((m: string) => m.trim());
    expect(allowed).toEqual(expect.arrayContaining([...methods]));
    expect(preflight.headers['access-control-allow-headers'].split(',').map((h: string) => h.trim())).toEqual([...CORS_ALLOWED_HEADERS]);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });
});
