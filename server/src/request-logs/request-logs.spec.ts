import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { ManualClock } from '../common/clock/drivers/manual.driver.js';
import { DeliveriesRepository } from '../deliveries/deliveries.repository.js';
import { Retention } from '../deliveries/retention.js';
import { RequestLogWriter } from './request-log-writer.js';
import { RequestLogsRepository } from './request-logs.repository.js';

const base = '/api/v1/request-logs';

/** Answers of known keys that failed, recorded by the access log and written by the writer in batches: read back here. */
describe('the request log', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  // Written only when a test says so: every entry a test reads was flushed on purpose.
  const flush = () => api.app.get(RequestLogWriter).flush();
  const list = (tenant: Tenant, query = '') => api.http.get(`${base}${query}`).set(tenant.auth);
  const missingDocument = (tenant: Tenant, requestId?: string) => {
    const request = api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${randomUUID()}`).set(tenant.auth);
    return requestId ? request.set('x-request-id', requestId) : request;
  };

  beforeAll(async () => {
    api = await startApi({ REQUEST_LOG_FLUSH_MS: '60000' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
  });

  afterAll(() => api.close());

  it('shows a 404 and a 422 with their route, codes and request id, and no success', async () => {
    const notFound = await missingDocument(rossi, 'sync-2026-0042');
    expectError(notFound, 404, 'not_found');
    const invalid = await api.http.post('/api/v1/webhook-endpoints').set(rossi.auth).send({ url: 'ftp://erp.rossi.test/hooks' });
    expect(invalid.status).toBe(422);
    await api.http.get('/api/v1/companies').set(rossi.auth).expect(200);
    await api.http.get(`/api/v1/companies/${rossi.companyId}/documents`).set(rossi.auth).expect(200);
    await flush();

    const answer = await list(rossi).expect(200);
    expect(answer.body.data).toEqual([
      {
        id: expect.any(String),
        created_at: expect.any(String),
        method: 'POST',
        route: '/webhook-endpoints',
        path: '/api/v1/webhook-endpoints',
        status: 422,
        error_codes: invalid.body.errors.map((item: { code: string }) => item.code),
        request_id: invalid.headers['x-request-id'],
        key_prefix: rossi.key.slice(0, 16),
        company_id: null,
        duration_ms: expect.any(Number),
      },
      {
        id: expect.any(String),
        created_at: expect.any(String),
        method: 'GET',
        route: '/companies/{company_id}/documents/{id}',
        path: expect.stringMatching(new RegExp(`^/api/v1/companies/${rossi.companyId}/documents/[0-9a-f-]{36}$`)),
        status: 404,
        error_codes: ['not_found'],
        request_id: 'sync-2026-0042',
        key_prefix: rossi.key.slice(0, 16),
        company_id: rossi.companyId,
        duration_ms: expect.any(Number),
      },
    ]);
    expect(answer.body.data[0].created_at >= answer.body.data[1].created_at).toBe(true);
    const [entry] = answer.body.data;
    expect((await api.http.get(`${base}/${entry.id}`).set(rossi.auth).expect(200)).body).toEqual(entry);
  });

  it('finds a request by its request id, status, class, route and time, page by page', async () => {
    await missingDocument(rossi, 'find-me-1').expect(404);
    await missingDocument(rossi, 'find-me-2').expect(404);
    await api.http.get(`/api/v1/companies/${rossi.companyId}/documents?filter[nope]=1`).set(rossi.auth).expect(400);
    await flush();

    const byRequestId = await list(rossi, '?filter[request_id]=find-me-2').expect(200);
    expect(byRequestId.body.data.map((e: { request_id: string }) => e.request_id)).toEqual(['find-me-2']);
    const badQuery = await list(rossi, '?filter[status]=400').expect(200);
    expect(badQuery.body.data).toHaveLength(1);
    expect(badQuery.body.data[0]).toMatchObject({ route: '/companies/{company_id}/documents', error_codes: ['invalid_query_parameter'] });
    expect((await list(rossi, '?filter[status_class]=5xx').expect(200)).body.data).toEqual([]);
    const documents = await list(rossi, `?filter[route]=${encodeURIComponent('/companies/{company_id}/documents/{id}')}&filter[method]=GET`).expect(200);
    expect(documents.body.data.length).toBeGreaterThanOrEqual(3);
    const future = await list(rossi, '?filter[created_at__gte]=2099-01-01').expect(200);
    expect(future.body.data).toEqual([]);

    // Newest first, in keyset pages that neither skip nor repeat.
    const all = ids(await list(rossi, '?page_size=100').expect(200));
    const paged: string[] = [];
    let query = '?page_size=2';
    for (;;) {
      const page = await list(rossi, query).expect(200);
      paged.push(...ids(page));
      if (!page.body.page.cursor) break;
      query = `?page_size=2&cursor=${page.body.page.cursor}`;
    }
    expect(paged).toEqual(all);
    expect(all.slice(0, 3)).toEqual(ids(await list(rossi, '?page_size=3').expect(200)));
  });

  it('refuses bad filters with 400', async () => {
    expectError(await list(rossi, '?filter[status]=abc'), 400, 'invalid_query_parameter', '/query/filter[status]');
    expectError(await list(rossi, '?filter[method]=FETCH'), 400, 'invalid_query_parameter', '/query/filter[method]');
    expectError(await list(rossi, '?filter[status_class]=2xx'), 400, 'invalid_query_parameter', '/query/filter[status_class]');
    expectError(await list(rossi, '?filter[created_at__gte]=yesterday'), 400, 'invalid_query_parameter', '/query/filter[created_at__gte]');
    expectError(await list(rossi, '?filter[body]=x'), 400, 'invalid_query_parameter', '/query/filter[body]');
    expectError(await list(rossi, '?sort=status'), 400, 'invalid_query_parameter', '/query/sort');
    expectError(await api.http.get(`${base}/not-an-id`).set(rossi.auth), 404, 'not_found');
  });

  it('never stores a body, a header, a query string or the key', async () => {
    const secret = `secret-${randomUUID()}`;
    await api.http
      .post('/api/v1/webhook-endpoints')
      .set(rossi.auth)
      .set('x-custom', secret)
      .send({ url: `ftp://${secret}.test`, description: secret })
      .expect(422);
    // A query parameter this route does not take: 400, its value in the URL only.
    await api.http
      .get(`/api/v1/companies/${rossi.companyId}/documents/${randomUUID()}`)
      .query({ q: secret })
      .set(rossi.auth)
      .set('cookie', `session=${secret}`)
      .expect(400);
    await flush();
    const rows: Array<{ row: string }> = await api.db.query(`SELECT row_to_json(r)::text AS row FROM request_logs r`);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const { row } of rows) {
      expect(row).not.toContain(secret);
      expect(row).not.toContain(rossi.key);
      expect(row).not.toContain(verdi.key);
    }
  });

  it("never shows another integrator's failures, and records none without a known key", async () => {
    const verdiFailure = await missingDocument(verdi, 'verdi-only').expect(404);
    // Rossi's key on Verdi's company: a 403 of Rossi's, in Rossi's log only.
    await api.http.get(`/api/v1/companies/${verdi.companyId}/documents`).set(rossi.auth).expect(403);
    await flush();
    const [{ count: before }] = await api.db.query(`SELECT count(*)::int AS count FROM request_logs`);
    await api.http.get('/api/v1/companies').set({ Authorization: 'Bearer fls_dev_NoSuchKeyNoSuchKeyNoSuchKey1234' }).expect(401);
    await api.http.get('/api/v1/companies').expect(401);
    await flush();

    const verdiLog = await list(verdi).expect(200);
    expect(verdiLog.body.data.map((e: { request_id: string }) => e.request_id)).toEqual(['verdi-only']);
    expect(verdiLog.body.data[0].request_id).toBe(verdiFailure.headers['x-request-id']);
    const rossiLog = await list(rossi, '?page_size=100').expect(200);
    expect(rossiLog.body.data.map((e: { request_id: string }) => e.request_id)).not.toContain('verdi-only');
    expect(rossiLog.body.data[0]).toMatchObject({ status: 403, company_id: verdi.companyId, error_codes: ['forbidden'] });
    expectError(await api.http.get(`${base}/${verdiLog.body.data[0].id}`).set(rossi.auth), 404, 'not_found');
    // The two 401s left nothing.
    const [{ count: after }] = await api.db.query(`SELECT count(*)::int AS count FROM request_logs`);
    expect(after).toBe(before);
  });

  it('needs request_logs:read, and logs the 403 of a key without it', async () => {
    const restricted = await api.integrators.createKey(rossi.integratorId, 'development', 'documents only', ['documents:read']);
    const reader = await api.integrators.createKey(rossi.integratorId, 'development', 'log reader', ['request_logs:read']);
    const refused = await api.http.get(base).set({ Authorization: `Bearer ${restricted.key}` });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'insufficient_permission', required_permission: 'request_logs:read' })]);
    await flush();
    const seen = await api.http.get(`${base}?filter[request_id]=${refused.headers['x-request-id']}`).set({ Authorization: `Bearer ${reader.key}` });
    expect(seen.status).toBe(200);
    expect(seen.body.data).toEqual([expect.objectContaining({ status: 403, route: '/request-logs', key_prefix: restricted.key.slice(0, 16) })]);
  });

  it('shows the last 7 days only, and the worker deletes older entries', async () => {
    await missingDocument(rossi, 'eight-days-old').expect(404);
    await missingDocument(rossi, 'six-days-old').expect(404);
    await flush();
    await api.db.query(`UPDATE request_logs SET created_at = now() - interval '8 days' WHERE request_id = 'eight-days-old'`);
    await api.db.query(`UPDATE request_logs SET created_at = now() - interval '6 days' WHERE request_id = 'six-days-old'`);
    const [{ id: oldId }] = await api.db.query(`SELECT id FROM request_logs WHERE request_id = 'eight-days-old'`);

    const shown = (await list(rossi, '?page_size=100').expect(200)).body.data.map((e: { request_id: string }) => e.request_id);
    expect(shown).toContain('six-days-old');
    expect(shown).not.toContain('eight-days-old');
    expectError(await api.http.get(`${base}/${oldId}`).set(rossi.auth), 404, 'not_found');

    const retention = new Retention(new DeliveriesRepository(api.db), new RequestLogsRepository(api.db), api.config, new ManualClock());
    expect((await retention.sweep()).requestLogs).toBe(1);
    const left = await api.db.query(`SELECT request_id FROM request_logs WHERE request_id IN ('eight-days-old', 'six-days-old')`);
    expect(left).toEqual([{ request_id: 'six-days-old' }]);
  });
});

describe('the request log’s writer', () => {
  let api: TestApi | undefined;
  let locker: pg.Client | undefined;

  afterEach(async () => {
    await locker?.end().catch(() => undefined);
    locker = undefined;
    await api?.close();
    api = undefined;
  });

  it('holds at most REQUEST_LOG_BUFFER entries while PostgreSQL does not take them, drops and counts the rest, and never holds a request', async () => {
    api = await startApi({ REQUEST_LOG_FLUSH_MS: '60000', REQUEST_LOG_BUFFER: '5', DB_LOCK_TIMEOUT_MS: '1500', LOG_LEVEL: 'warn' }, { captureLogs: true });
    const tenant = await createTenant(api);
    const writer = api.app.get(RequestLogWriter);
    const fail = (requestId: string) =>
      api!.http.get(`/api/v1/companies/${tenant.companyId}/documents/${randomUUID()}`).set(tenant.auth).set('x-request-id', requestId).expect(404);

    // The table locked by another session: the writer's INSERT waits, then fails at the lock timeout.
    locker = new pg.Client({ connectionString: api.config.databaseUrl });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE request_logs IN ACCESS EXCLUSIVE MODE');

    for (const n of [1, 2, 3]) await fail(`stuck-${n}`);
    const stuck = writer.flush();
    for (let n = 1; n <= 10; n++) {
      const started = performance.now();
      await fail(`held-${n}`);
      expect(performance.now() - started).toBeLessThan(1000);
    }
    // Five held (the buffer's bound), five dropped; the three in the INSERT are lost when it fails.
    await stuck;
    expect(writer.dropped).toBe(8);
    await locker.query('ROLLBACK');

    await writer.flush();
    const written: Array<{ request_id: string }> = await api.db.query(`SELECT request_id FROM request_logs ORDER BY created_at, request_id`);
    expect(written.map((row) => row.request_id)).toEqual(['held-1', 'held-2', 'held-3', 'held-4', 'held-5']);
    const warnings = api.logs.filter((line) => line.level === 'warn' && String(line.msg).startsWith('request log'));
    expect(warnings.map((line) => line.msg)).toEqual([
      expect.stringMatching(/^request log: a batch of 3 could not be written: /),
      'request log: 8 failed requests were not recorded (8 since start)',
    ]);
  });

  it('writes what it holds when the API closes', async () => {
    api = await startApi({ REQUEST_LOG_FLUSH_MS: '60000' });
    const tenant = await createTenant(api);
    for (let n = 0; n < 3; n++) {
      await api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${randomUUID()}`).set(tenant.auth).expect(404);
    }
    expect(await api.db.query(`SELECT 1 FROM request_logs`)).toEqual([]);
    const databaseUrl = api.config.databaseUrl;
    await api.app.close();
    const reader = new pg.Client({ connectionString: databaseUrl });
    await reader.connect();
    try {
      const [{ count }] = (await reader.query(`SELECT count(*)::int AS count FROM request_logs`)).rows;
      expect(count).toBe(3);
    } finally {
      await reader.end();
    }
  });

  it('records nothing with REQUEST_LOG=off', async () => {
    api = await startApi({ REQUEST_LOG: 'off' });
    const tenant = await createTenant(api);
    await api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${randomUUID()}`).set(tenant.auth).expect(404);
    await api.app.get(RequestLogWriter).flush();
    expect(await api.db.query(`SELECT 1 FROM request_logs`)).toEqual([]);
  });
});
