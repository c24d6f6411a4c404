import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTenant, logCapture, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { createTestDatabase } from '../../test/database.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { loadConfig } from '../config/config.js';
import { createWorker } from '../worker.module.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Request ids and structured logs: every answer carries X-Request-Id (the caller's when it is sensible, else a new
 * one), every error body carries it in `meta.request_id`, and each process logs JSON lines at LOG_LEVEL: one access
 * line per request, failures at `error` with the request id, never a key, a header or a body.
 */
describe('request ids and logs', () => {
  let api: TestApi;
  let rossi: Tenant;
  let company: string;
  let documentId: string;

  beforeAll(async () => {
    api = await startApi({ LOG_LEVEL: 'info' }, { captureLogs: true });
    rossi = await createTenant(api);
    documentId = (await new Fixtures(api.db, rossi.companyId).document()).id;
    company = `/api/v1/companies/${rossi.companyId}`;
  });

  afterAll(() => api.close());

  const linesOf = (requestId: string) => api.logs.filter((line) => line.request_id === requestId);

  describe('X-Request-Id', () => {
    it('is generated when the caller sends none, on successes and errors alike', async () => {
      const ok = await api.http.get(`${company}/accounts`).set(rossi.auth).expect(200);
      expect(ok.headers['x-request-id']).toMatch(UUID);
      const missing = await api.http.get(`${company}/documents/${randomUUID()}`).set(rossi.auth);
      expectError(missing, 404, 'not_found');
      expect(missing.headers['x-request-id']).toMatch(UUID);
      expect(missing.headers['x-request-id']).not.toBe(ok.headers['x-request-id']);
    });

    it("keeps the caller's id when it is 1 to 128 letters, digits or -_.:+/=", async () => {
      for (const id of ['a', 'req-42', randomUUID(), '01HZX3J8Q4K7M2N5P6R8S9T0VW', 'Root=1-67891233-abcdef012345678912345678', 'x'.repeat(128), 'dGVzdA+/=']) {
        const ok = await api.http.get(`${company}/accounts`).set(rossi.auth).set('X-Request-Id', id).expect(200);
        expect(ok.headers['x-request-id']).toBe(id);
        const unauthorized = await api.http.get(`${company}/accounts`).set('X-Request-Id', id);
        expectError(unauthorized, 401, 'unauthorized');
        expect(unauthorized.body.meta.request_id).toBe(id);
      }
    });

    it('replaces an id that is too long, empty, repeated or has other characters', async () => {
      for (const id of ['x'.repeat(129), '', 'two words', 'a;b', '<script>', 'é', '{"$gt":""}']) {
        const response = await api.http.get(`${company}/accounts`).set(rossi.auth).set('X-Request-Id', id).expect(200);
        expect([id, response.headers['x-request-id']]).toEqual([id, expect.stringMatching(UUID)]);
      }
      const repeated = await api.http
        .get(`${company}/accounts`)
        .set(rossi.auth)
        .set('X-Request-Id', ['a', 'b'] as unknown as string)
        .expect(200);
      expect(repeated.headers['x-request-id']).toMatch(UUID);
    });

    it('is in the body and header of errors raised before routing, by the router and by the HTTPS check', async () => {
      for (const response of [
        await api.http.get(`${company}/accounts/%zz`).set(rossi.auth).set('X-Request-Id', 'bad-url'),
        await api.http.get('/api/v1/nope').set('X-Request-Id', 'no-route'),
        await api.http.delete(`${company}/accounts`).set(rossi.auth).set('X-Request-Id', 'no-method'),
        await api.http.post(`${company}/reconciliations`).set(rossi.auth).set('content-type', 'application/json').set('X-Request-Id', 'bad-json').send('{'),
      ]) {
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.body.meta).toEqual({ request_id: response.headers['x-request-id'] });
        expect(response.headers['x-request-id']).toMatch(/^(bad-url|no-route|no-method|bad-json)$/);
      }
      const production = await startApi({
        FLUSSO_ENV: 'production',
        API_KEY_PEPPER: 'a-production-secret',
        WEBHOOK_SECRET_KEY: 'a-webhook-secret',
        INVOICE_LINK_SECRET: 'an-invoice-link-secret',
      });
      try {
        const refused = await production.http.get('/api/v1/companies').set('X-Request-Id', 'plain-http');
        expectError(refused, 403, 'https_required');
        expect(refused.body.meta.request_id).toBe('plain-http');
      } finally {
        await production.close();
      }
    });

    it('crosses CORS: accepted in requests, readable in answers', async () => {
      const preflight = await api.http
        .options(`${company}/accounts`)
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization, x-request-id');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-headers']).toContain('x-request-id');
      const response = await api.http.get(`${company}/accounts`).set(rossi.auth).set('Origin', 'https://app.example').expect(200);
      expect(response.headers['access-control-expose-headers']).toContain('x-request-id');
    });
  });

  describe('logs', () => {
    it('writes one JSON access line per request at info: method, route, status, duration, request, integrator, key and company ids', async () => {
      const id = `access-${randomUUID()}`;
      await api.http.get(`${company}/documents/${documentId}?expand=flows`).set(rossi.auth).set('X-Request-Id', id).expect(200);
      expect(linesOf(id)).toEqual([
        {
          level: 'info',
          time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          process: 'api',
          request_id: id,
          msg: 'request',
          method: 'GET',
          route: '/api/v1/companies/:company_id/documents/:id',
          path: `${company}/documents/${documentId}`,
          status: 200,
          duration_ms: expect.any(Number),
          integrator_id: rossi.integratorId,
          key_id: expect.stringMatching(UUID),
          company_id: rossi.companyId,
          ip: expect.any(String),
        },
      ]);
      const anonymous = `anonymous-${randomUUID()}`;
      await api.http.get('/api/v1/nope').set('X-Request-Id', anonymous).expect(404);
      expect(linesOf(anonymous)).toEqual([expect.objectContaining({ level: 'info', status: 404, route: null, integrator_id: null, company_id: null })]);
    });

    it('logs a failure at error with its request id and cause, and answers without it', async () => {
      const id = `failure-${randomUUID()}`;
      await api.db.query('ALTER TABLE accounts RENAME TO accounts_renamed_by_logging_test');
      try {
        const response = await api.http.get(`${company}/accounts?filter[id__neq]=${randomUUID()}`).set(rossi.auth).set('X-Request-Id', id);
        expectError(response, 500, 'internal_server_error');
      } finally {
        await api.db.query('ALTER TABLE accounts_renamed_by_logging_test RENAME TO accounts');
      }
      const [failure, access] = linesOf(id);
      expect(failure).toMatchObject({
        level: 'error',
        request_id: id,
        status: 500,
        err: { type: 'QueryFailedError', code: '42P01', message: expect.stringMatching(/accounts/) },
      });
      expect(JSON.stringify(failure)).not.toMatch(/parameters/);
      expect(access).toMatchObject({ level: 'info', request_id: id, status: 500 });
    });

    it('never logs the API key, the Authorization header or a request body', async () => {
      const marker = `body-marker-${randomUUID()}`;
      await api.http
        .patch(`${company}/documents/${documentId}`)
        .set(rossi.auth)
        .send({ category_id: null, [marker]: marker })
        .expect(400);
      // Its last character changed (a key that ends in `x` would stay itself with a trailing `x`).
      const altered = rossi.key.slice(0, -1) + (rossi.key.at(-1) === 'x' ? 'y' : 'x');
      await api.http.get(`${company}/accounts`).set('Authorization', `Bearer ${altered}`).expect(401);
      const everything = JSON.stringify(api.logs);
      expect(api.logs.length).toBeGreaterThan(10);
      expect(everything).not.toContain(rossi.key.slice(8));
      expect(everything).not.toMatch(/bearer|authorization/i);
      expect(everything).not.toContain(marker);
    });
  });

  it('LOG_LEVEL=warn keeps the access lines out but logs failures', async () => {
    const quiet = await startApi({ LOG_LEVEL: 'warn' }, { captureLogs: true });
    try {
      const tenant = await createTenant(quiet);
      await quiet.http.get(`/api/v1/companies/${tenant.companyId}/accounts`).set(tenant.auth).expect(200);
      expect(quiet.logs).toEqual([]);
      await quiet.db.query('ALTER TABLE accounts RENAME TO accounts_renamed_by_logging_test');
      await quiet.http.get(`/api/v1/companies/${tenant.companyId}/accounts?filter[id__neq]=${randomUUID()}`).set(tenant.auth).expect(500);
      expect(quiet.logs).toEqual([expect.objectContaining({ level: 'error', status: 500 })]);
    } finally {
      await quiet.close();
    }
  });

  it('the worker logs JSON lines too, at its LOG_LEVEL', async () => {
    const database = await createTestDatabase();
    try {
      for (const [level, expectInfo] of [
        ['info', true],
        ['warn', false],
      ] as const) {
        const capture = logCapture();
        const worker = await createWorker(loadConfig({ ...process.env, LOG_LEVEL: level, DATABASE_URL: database.url }), { logDestination: capture.stream });
        await worker.init();
        await worker.close();
        expect(capture.lines.every((line) => line.process === 'worker' && typeof line.level === 'string')).toBe(true);
        expect(capture.lines.some((line) => line.level === 'info')).toBe(expectInfo);
      }
    } finally {
      await database.drop();
    }
  });
});
