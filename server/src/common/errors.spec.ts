import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { accountList } from '../accounts/accounts.repository.js';
import { categoryList } from '../categories/categories.repository.js';
import { counterpartList } from '../counterparts/counterparts.repository.js';
import { documentList } from '../documents/documents.repository.js';
import { flowList } from '../flows/flows.repository.js';
import { reconciliationList } from '../reconciliations/reconciliations.repository.js';
import { transactionList } from '../transactions/transactions.repository.js';
import { companyList } from '../companies/companies.repository.js';
import { ERROR_CODES } from './errors/error-codes.js';
import { OPERATORS_BY_TYPE, type ListSpec } from './listing/list-spec.js';

/** Values that have broken APIs before: SQL and LIKE metacharacters, quotes, NUL, unicode, huge numbers, long strings. */
const NASTY = [
  "' OR 1=1 --",
  '"; DROP TABLE documents; --',
  '%',
  '%%',
  '_',
  '\\',
  '\\%',
  '[a-z]',
  '$1',
  ':p0',
  '${jndi:ldap://x}',
  '\u0000',
  'a\u0000b',
  'é漢字🙂',
  '\ud800',
  '9999999999999999999999',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '',
  ' ',
  ',',
  'x'.repeat(500),
  'x'.repeat(5000),
  '2026-02-30',
  '99999-01-01',
  '0000-01-01',
  '2026-01-01T25:00:00Z',
  'DELIVERED,,DRAFT',
  '00000000-0000-0000-0000-000000000000',
];

describe('errors: every failure is the integration error, never a 500', () => {
  let api: TestApi;
  let rossi: Tenant;
  let company: string;
  let documentId: string;
  let flowId: string;

  beforeAll(async () => {
    // A high limit: the fuzz below sends a few thousand requests with one key.
    api = await startApi({ RATE_LIMIT_POINTS: '1000000', BODY_LIMIT_BYTES: '16384' });
    rossi = await createTenant(api);
    const fixtures = new Fixtures(api.db, rossi.companyId);
    const document = await fixtures.document({ notes: 'Fornitura' });
    documentId = document.id;
    flowId = (await fixtures.flow(document)).id;
    const account = await fixtures.account();
    await fixtures.transaction(account);
    await fixtures.counterpart();
    await fixtures.category();
    company = `/api/v1/companies/${rossi.companyId}`;
  });

  afterAll(() => api.close());

  /** A non-200 answer must be one of the documented client errors with the integration error body. */
  function expectDocumentedError(response: Response, context: string): void {
    const where = `${context} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
    expect([where, response.status < 500]).toEqual([where, true]);
    if (response.status === 200) return;
    expect([where, [400, 403, 404].includes(response.status)]).toEqual([where, true]);
    const errors = response.body.errors as Array<Record<string, unknown>>;
    expect([where, Array.isArray(errors) && errors.length > 0]).toEqual([where, true]);
    for (const error of errors) {
      const code = error.code as keyof typeof ERROR_CODES;
      expect([where, ERROR_CODES[code]?.status, error.title]).toEqual([where, response.status, ERROR_CODES[code]?.title]);
      expect(Object.keys(error).every((key) => ['code', 'title', 'detail', 'source'].includes(key))).toBe(true);
    }
  }

  const lists: Array<[string, ListSpec]> = [
    ['/api/v1/companies', companyList],
    ['accounts', accountList],
    ['categories', categoryList],
    ['counterparts', counterpartList],
    ['documents', documentList],
    ['flows', flowList],
    ['reconciliations', reconciliationList],
    ['transactions', transactionList],
  ];
  const pathOf = (name: string) => (name.startsWith('/') ? name : name === 'flows' ? `${company}/documents/${documentId}/flows` : `${company}/${name}`);

  /** Runs requests a few at a time: the fuzz is a few thousand small requests. */
  async function inParallel<T>(items: T[], work: (item: T) => Promise<void>, width = 6): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < items.length) await work(items[next++]);
      }),
    );
  }

  /** One representative of each way an operator parses its value (the comparisons share one path). */
  const REPRESENTATIVE_OPERATORS = ['eq', 'in', 'ilike'];
  const CORE = ["' OR 1=1 --", '%_\\', '\u0000', 'é漢字🙂', '9999999999999999999999', 'x'.repeat(501)];
  /** A shorter list for parameters whose parsing is shared by every list. */
  const SHORT = [...CORE, '', ',', '-', '--id', 'id,id', 'null', '1e2', '0', '101', 'eyJrIjpbXSwiZiI6IiJ9', 'x'.repeat(3000)];

  it('answers every filter, operator and hostile value with 200 or a documented 400 pointing at the filter', async () => {
    const cases: Array<[string, string, string]> = [];
    const seenTypes = new Set<string>();
    for (const [name, spec] of lists) {
      for (const [field, fieldSpec] of [...spec.filters, ['not_a_field', { type: 'string' }] as const]) {
        const allowed = OPERATORS_BY_TYPE[fieldSpec.type as keyof typeof OPERATORS_BY_TYPE];
        for (const operator of REPRESENTATIVE_OPERATORS.filter((op) => field === 'not_a_field' || allowed.includes(op as never))) {
          for (const value of CORE) cases.push([name, `filter[${field}__${operator}]`, value]);
        }
        // Every hostile value once per field type (the value parser depends on the type only).
        if (!seenTypes.has(fieldSpec.type)) for (const value of NASTY) cases.push([name, `filter[${field}]`, value]);
        seenTypes.add(fieldSpec.type);
      }
    }
    expect(cases.length).toBeGreaterThan(500);
    await inParallel(cases, async ([name, param, value]) => {
      const response = await api.http
        .get(pathOf(name))
        .query({ [param]: value })
        .set(rossi.auth);
      expectDocumentedError(response, `${name} ${param}=${JSON.stringify(value).slice(0, 40)}`);
      if (response.status !== 200) expect(response.body.errors[0].source).toEqual({ pointer: `/query/${param}` });
    });
  });

  it('answers hostile sort, expand, cursor, page_size and parameter names with a documented 400', async () => {
    const cases: Array<[string, string, string]> = [];
    for (const [name] of lists) {
      // sort and expand are checked against each list's own fields; cursor and page_size parsing is shared.
      const params = name === 'transactions' ? ['sort', 'expand', 'cursor', 'page_size'] : ['sort', 'expand'];
      for (const value of SHORT) for (const param of params) cases.push([name, param, value]);
    }
    for (const value of NASTY) cases.push(['documents', value || 'x', '1']);
    await inParallel(cases, async ([name, param, value]) => {
      const response = await api.http
        .get(pathOf(name))
        .query({ [param]: value })
        .set(rossi.auth);
      expectDocumentedError(response, `${name} ${JSON.stringify(param).slice(0, 40)}=${JSON.stringify(value).slice(0, 40)}`);
      // (A parameter name that is not valid UTF-16 reaches the server with a replacement character.)
      if (response.status !== 200 && !param.includes('\ud800')) expect(response.body.errors[0].source).toEqual({ pointer: `/query/${param}` });
    });
  });

  it('answers hostile ids in every path with 403 or 404, never 500', async () => {
    const templates = [
      (id: string) => `/api/v1/companies/${id}/accounts`,
      (id: string) => `${company}/accounts/${id}`,
      (id: string) => `${company}/categories/${id}`,
      (id: string) => `${company}/counterparts/${id}`,
      (id: string) => `${company}/documents/${id}`,
      (id: string) => `${company}/documents/${id}/flows`,
      (id: string) => `${company}/documents/${documentId}/flows/${id}`,
      (id: string) => `${company}/reconciliations/${id}`,
      (id: string) => `${company}/transactions/${id}`,
    ];
    for (const template of templates) {
      for (const value of SHORT.filter((v) => v !== '')) {
        const path = template(encodeURIComponent(value));
        const response = await api.http.get(path).set(rossi.auth);
        expectDocumentedError(response, `GET ${path.slice(0, 120)}`);
        expect(response.status).not.toBe(200);
      }
    }
    for (const value of ["' OR 1=1 --", 'é漢字🙂', '%00', 'x'.repeat(300)]) {
      const patched = await api.http
        .patch(`${company}/documents/${encodeURIComponent(value)}`)
        .set(rossi.auth)
        .send({ category_id: null });
      expectDocumentedError(patched, `PATCH document ${value.slice(0, 20)}`);
      const deleted = await api.http.delete(`${company}/reconciliations/${encodeURIComponent(value)}`).set(rossi.auth);
      expectDocumentedError(deleted, `DELETE reconciliation ${value.slice(0, 20)}`);
    }
  });

  it('answers hostile body values with a documented 400 or 422, never 500', async () => {
    const bodies: Array<[string, 'patch' | 'post', Record<string, unknown>]> = [];
    // eslint-disable-next-line no-loss-of-precision -- a number too large for a double, as a client might send
    for (const value of [...NASTY, 9999999999999999999999, -1, 1.5, true, null, [], {}, ['x'], { $gt: '' }]) {
      bodies.push([`${company}/documents/${documentId}`, 'patch', { category_id: value }]);
      bodies.push([`${company}/reconciliations`, 'post', { flow_id: value, transaction_id: value }]);
      bodies.push([`${company}/documents/${documentId}/flows/${flowId}`, 'patch', { amount: { amount: value, currency: 'EUR' } }]);
      bodies.push([`${company}/documents/${documentId}/flows/${flowId}`, 'patch', { amount: { amount: '1.00', currency: value } }]);
      bodies.push([`${company}/documents/${documentId}/flows/${flowId}`, 'patch', { payment_method: value, expected_payment_date: value }]);
      bodies.push([`${company}/documents/${documentId}/flows/${flowId}`, 'patch', { payment_status: value, payment_date: value }]);
    }
    for (const [path, method, payload] of bodies) {
      const response = await api.http[method](path).set(rossi.auth).send(payload);
      const where = `${method} ${path} ${JSON.stringify(payload).slice(0, 80)} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
      expect([where, response.status < 500]).toEqual([where, true]);
      if (response.status >= 400) {
        expect([where, [400, 404, 422].includes(response.status)]).toEqual([where, true]);
        for (const error of response.body.errors)
          expect([where, ERROR_CODES[error.code as keyof typeof ERROR_CODES]?.status]).toEqual([where, response.status]);
      }
    }
  });

  describe('documented answers', () => {
    it('the errors page lists every error code with its status', () => {
      const page = readFileSync(join(process.cwd(), 'portal/app/content/basics/errors.md'), 'utf8');
      for (const [code, { status }] of Object.entries(ERROR_CODES)) expect([code, page.includes(`| ${status} | \`${code}\` |`)]).toEqual([code, true]);
    });

    it('unknown route: 404 not_found naming the route, with or without a key', async () => {
      expectError(await api.http.get('/api/v1/nope'), 404, 'not_found', undefined, 'There is no route GET /api/v1/nope.');
      expectError(await api.http.get('/api/v1/nope').set(rossi.auth), 404, 'not_found', undefined, 'There is no route GET /api/v1/nope.');
      expectError(await api.http.get(`${company}/accounts/x/y`).set(rossi.auth), 404, 'not_found', undefined, `There is no route GET ${company}/accounts/x/y.`);
      expectError(await api.http.get('/'), 404, 'not_found');
    });

    it('a request naming a key but no route is counted: its 404 or 405 carries the rate-limit headers, a bad key is a 401', async () => {
      const counted = (response: Response) => [response.status, response.headers['x-ratelimit-limit'], response.headers['x-ratelimit-remaining'] !== undefined];
      expect(counted(await api.http.get('/api/v1/nope').set(rossi.auth))).toEqual([404, '1000000', true]);
      expect(counted(await api.http.delete(`${company}/accounts`).set(rossi.auth))).toEqual([405, '1000000', true]);
      expectError(await api.http.get('/api/v1/nope').set('authorization', 'Bearer fls_dev_notakeyatall'), 401, 'unauthorized');
      expect((await api.http.get('/api/v1/nope')).headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('a query parameter on an operation that takes none: 400 invalid_query_parameter before anything changes, after 401', async () => {
      const detail = 'Unknown query parameter force.';
      expectError(
        await api.http.delete(`${company}/documents/${documentId}/flows/${flowId}?force=true`).set(rossi.auth),
        400,
        'invalid_query_parameter',
        '/query/force',
        detail,
      );
      await api.http.get(`${company}/documents/${documentId}/flows/${flowId}`).set(rossi.auth).expect(200);
      const patch = await api.http.patch(`${company}/documents/${documentId}?force=true`).set(rossi.auth).send({ notes: 'Cambiata' });
      expectError(patch, 400, 'invalid_query_parameter', '/query/force', detail);
      expect((await api.http.get(`${company}/documents/${documentId}`).set(rossi.auth).expect(200)).body.notes).toBe('Fornitura');
      expectError(await api.http.delete(`${company}/documents/${documentId}/flows/${flowId}?force=true`), 401, 'unauthorized');
    });

    it('a path that exists with other methods: 405 method_not_allowed with Allow', async () => {
      const accounts = await api.http.delete(`${company}/accounts`).set(rossi.auth);
      expectError(accounts, 405, 'method_not_allowed', undefined, 'DELETE is not allowed on this path; use GET, HEAD.');
      expect(accounts.headers.allow).toBe('GET, HEAD');
      const flow = await api.http.put(`${company}/documents/${randomUUID()}/flows/${randomUUID()}`).set(rossi.auth).send({});
      expectError(flow, 405, 'method_not_allowed', undefined, 'PUT is not allowed on this path; use DELETE, GET, HEAD, PATCH.');
      expect(flow.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
      expect((await api.http.post(`${company}/reconciliations/${randomUUID()}`).set(rossi.auth)).headers.allow).toBe('DELETE, GET, HEAD');
    });

    it('malformed or empty JSON: 400 bad_request', async () => {
      const post = () => api.http.post(`${company}/reconciliations`).set(rossi.auth).set('content-type', 'application/json');
      expectError(await post().send('{"flow_id":'), 400, 'bad_request');
      expectError(await post().send("{'flow_id': 1}"), 400, 'bad_request');
      expectError(await post(), 400, 'bad_request', undefined, 'The request body is empty; send a JSON object.');
      expectError(
        await post().send('{"__proto__": {"admin": true}}'),
        400,
        'bad_request',
        '/__proto__',
        'The member __proto__ is not allowed in this request.',
      );
      expectError(await post().send('null'), 400, 'bad_request', '');
      expectError(await post().send('"text"'), 400, 'bad_request', '');
      expectError(await post().send('[]'), 400, 'bad_request', '');
    });

    it('an empty body sent as JSON to a call that takes none is no body (clients that always send Content-Type)', async () => {
      const missing = await api.http.delete(`${company}/reconciliations/${randomUUID()}`).set(rossi.auth).set('content-type', 'application/json');
      expectError(missing, 404, 'not_found');
      // A call that reads a body still says it is missing.
      const patch = await api.http.patch(`${company}/documents/${documentId}`).set(rossi.auth).set('content-type', 'application/json');
      expectError(patch, 400, 'bad_request', undefined, 'The request body is empty; send a JSON object.');
    });

    it('a body that is not JSON: 415 unsupported_media_type', async () => {
      const patch = () => api.http.patch(`${company}/documents/${documentId}`).set(rossi.auth);
      const detail = 'Send the request body as application/json.';
      expectError(await patch().set('content-type', 'text/plain').send('category_id=null'), 415, 'unsupported_media_type', undefined, detail);
      expectError(
        await patch().set('content-type', 'application/x-www-form-urlencoded').send('category_id='),
        415,
        'unsupported_media_type',
        undefined,
        detail,
      );
      expectError(await patch().set('content-type', 'application/xml').send('<category_id/>'), 415, 'unsupported_media_type', undefined, detail);
      expectError(await patch().field('category_id', ''), 415, 'unsupported_media_type', undefined, detail);
      expectError(await patch().send(Buffer.from('{"category_id":null}')), 415, 'unsupported_media_type', undefined, detail);
      const stored = await api.http.get(`${company}/documents/${documentId}`).set(rossi.auth).expect(200);
      expect(stored.body.category_id).toBeNull();
    });

    it('a body over BODY_LIMIT_BYTES: 413 payload_too_large', async () => {
      const big = JSON.stringify({ category_id: null, padding: 'x'.repeat(16384) });
      expectError(
        await api.http.patch(`${company}/documents/${documentId}`).set(rossi.auth).set('content-type', 'application/json').send(big),
        413,
        'payload_too_large',
      );
    });

    it('unknown members and wrong types: 400 with a pointer to the member', async () => {
      const post = (body: unknown) =>
        api.http
          .post(`${company}/reconciliations`)
          .set(rossi.auth)
          .send(body as object);
      const response = await post({ flow_id: flowId, transaction_id: flowId, note: 'x' }).expect(400);
      expect(response.body).toEqual({
        errors: [{ code: 'bad_request', title: 'Bad request', detail: 'The member note is not allowed in this request.', source: { pointer: '/note' } }],
        meta: { request_id: expect.any(String) },
      });
      const typed = await post({ flow_id: 7, transaction_id: ['x'] }).expect(400);
      expect(typed.body.errors.map((e: { source: unknown }) => e.source)).toEqual([{ pointer: '/flow_id' }, { pointer: '/transaction_id' }]);
      expectError(await post({ transaction_id: flowId }), 400, 'bad_request', '/flow_id', 'flow_id is required');
    });

    it('a malformed URL is 400 and an over-long path segment 404, both the integration error with HSTS', async () => {
      const bad = await api.http.get(`${company}/accounts/%zz`).set(rossi.auth);
      expectError(bad, 400, 'bad_request', undefined, 'The request URL is malformed.');
      expect(bad.headers['strict-transport-security']).toContain('max-age=');
      const long = await api.http.get(`${company}/accounts/${'a'.repeat(300)}`).set(rossi.auth);
      expectError(long, 404, 'not_found');
      expect(long.headers['strict-transport-security']).toContain('max-age=');
    });

    it('a 500 is internal_server_error without stack trace or SQL', async () => {
      await api.db.query('ALTER TABLE accounts RENAME TO accounts_renamed_by_test');
      let response: Response;
      try {
        response = await api.http.get(`${company}/accounts?filter[id__neq]=00000000-0000-4000-8000-000000000000`).set(rossi.auth);
      } finally {
        await api.db.query('ALTER TABLE accounts_renamed_by_test RENAME TO accounts');
      }
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        errors: [{ code: 'internal_server_error', title: 'Internal server error', detail: 'An unexpected error occurred; it has been logged.' }],
        meta: { request_id: expect.any(String) },
      });
      expect(response.text).not.toMatch(/SELECT|accounts|relation|at .*\.(js|ts):\d+|QueryFailedError/i);
      await api.http.get(`${company}/accounts`).set(rossi.auth).expect(200);
    });

    it('every answer, error or not, carries HSTS', async () => {
      for (const response of [
        await api.http.get('/api/v1/companies').set(rossi.auth),
        await api.http.get('/api/v1/companies'),
        await api.http.get('/api/v1/nope'),
        await api.http.get('/api/v1/openapi.json'),
      ]) {
        expect(response.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
      }
    });
  });
});
