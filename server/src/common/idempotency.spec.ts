import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import type { Document } from '../documents/document.entity.js';
import { IdempotencySweeper } from './idempotency/idempotency-sweeper.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { requestFingerprint } from './idempotency/idempotency-key.js';

/** Where idempotency errors point. */
const KEY = '/header/Idempotency-Key';

describe('Idempotency-Key on POST', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let account: Account;
  let invoice: Document;
  let categories: string;
  let seq = 0;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    account = await fixtures.account();
    invoice = await fixtures.document({ grossAmount: '5000.00' });
    categories = `/api/v1/companies/${rossi.companyId}/categories`;
  });

  afterAll(() => api.close());

  /** A key no other test uses. */
  const newKey = () => `test-key-${++seq}-${Date.now()}`;
  const createCategory = (key: string | undefined, body: object, tenant = rossi, path = categories) => {
    const call = api.http.post(path).set(tenant.auth);
    return (key === undefined ? call : call.set('Idempotency-Key', key)).send(body);
  };
  const countCategories = async (name: string, companyId = rossi.companyId) =>
    Number((await api.db.query('SELECT count(*) FROM categories WHERE company_id = $1 AND name = $2', [companyId, name]))[0].count);
  const keyRows = async (key: string) =>
    api.db.query<Array<{ status: string; company_id: string | null; response_body: string | null }>>(
      'SELECT status, company_id, response_body FROM idempotency_keys WHERE key = $1',
      [key],
    );
  const expectReplayOf = (retry: Response, first: Response) => {
    expect({ status: retry.status, body: retry.body, location: retry.headers.location, type: retry.headers['content-type'] }).toEqual({
      status: first.status,
      body: first.body,
      location: first.headers.location,
      type: first.headers['content-type'],
    });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    // The retry is a request of its own: its id and rate-limit headers are fresh.
    expect(retry.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(retry.headers['x-ratelimit-remaining']).toBeDefined();
  };

  it('replays the first answer to a retry with the same key and body, and creates nothing twice', async () => {
    const key = newKey();
    const first = await createCategory(key, { name: 'Affitti' }).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await createCategory(key, { name: 'Affitti' }).expect(201);
    expectReplayOf(retry, first);
    expect(await countCategories('Affitti')).toBe(1);
    // Without a key, the same body creates another one: nothing changes for callers who send none.
    await createCategory(undefined, { name: 'Affitti' }).expect(201);
    expect(await countCategories('Affitti')).toBe(2);
  });

  it('compares JSON bodies by content: member order and spacing do not make another request', async () => {
    const key = newKey();
    const path = `/api/v1/companies/${rossi.companyId}/counterparts`;
    const body = { company_name: 'Bianchi Impianti S.r.l.', country: 'IT', vat_number: '01234567897' };
    const first = await createCategory(key, body, rossi, path).expect(201);
    const reordered = `{ "vat_number": "01234567897",\n  "country": "IT", "company_name": "Bianchi Impianti S.r.l." }`;
    const retry = await api.http.post(path).set(rossi.auth).set('Idempotency-Key', key).set('Content-Type', 'application/json').send(reordered).expect(201);
    expectReplayOf(retry, first);
    const count = await api.db.query('SELECT count(*) FROM counterparts WHERE company_id = $1 AND company_name = $2', [rossi.companyId, body.company_name]);
    expect(Number(count[0].count)).toBe(1);
  });

  it('refuses the same key with another body or another path (422 idempotency_key_reused), running nothing', async () => {
    const key = newKey();
    await createCategory(key, { name: 'Utenze' }).expect(201);
    expectError(await createCategory(key, { name: 'Utenze 2' }), 422, 'idempotency_key_reused', KEY);
    expect(await countCategories('Utenze 2')).toBe(0);
    const parent = (await createCategory(undefined, { name: 'Banca' }).expect(201)).body;
    const subcategories = `/api/v1/companies/${rossi.companyId}/subcategories`;
    expectError(await createCategory(key, { category_id: parent.id, name: 'Utenze' }, rossi, subcategories), 422, 'idempotency_key_reused', KEY);
    // A query parameter the route does not take is refused before the key is looked at.
    expectError(await createCategory(key, { name: 'Utenze' }, rossi, `${categories}?x=1`), 400, 'invalid_query_parameter', '/query/x');
    expect(await countCategories('Utenze')).toBe(1);
    // The first answer is still the key's.
    expect((await createCategory(key, { name: 'Utenze' }).expect(201)).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps keys apart by integrator and by company', async () => {
    const key = newKey();
    await createCategory(key, { name: 'Consulenze' }).expect(201);
    // Another integrator's request with the same key and body is its own.
    const theirs = await createCategory(key, { name: 'Consulenze' }, verdi, `/api/v1/companies/${verdi.companyId}/categories`).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await countCategories('Consulenze', verdi.companyId)).toBe(1);
    // The same integrator in another company: another scope, and so another key (the path differs too).
    await api.integrators.grant(rossi.integratorId, verdi.companyId);
    const other = await createCategory(key, { name: 'Consulenze' }, rossi, `/api/v1/companies/${verdi.companyId}/categories`).expect(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await countCategories('Consulenze', verdi.companyId)).toBe(2);
    expect(await countCategories('Consulenze')).toBe(1);
    expect((await keyRows(key)).map((row) => row.company_id).sort()).toEqual([rossi.companyId, verdi.companyId, verdi.companyId].sort());
  });

  it('serialises concurrent requests with one key: exactly one runs, the others get its answer or 409', async () => {
    const key = newKey();
    const flow = await fixtures.flow(invoice, { amount: '100.00' });
    const transaction = await fixtures.transaction(account, { amount: '100.00', date: '2026-03-30' });
    const body = { flow_id: flow.id, transaction_id: transaction.id };
    const path = `/api/v1/companies/${rossi.companyId}/reconciliations`;
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.http.post(path).set(rossi.auth).set('Idempotency-Key', key).send(body)));
    const created = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 409);
    expect(created.length + busy.length).toBe(answers.length);
    expect(created.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    for (const answer of busy) {
      expectError(answer, 409, 'idempotency_key_in_progress', KEY);
      expect(answer.headers['retry-after']).toBe('1');
    }
    const rows = await api.db.query('SELECT count(*) FROM reconciliations WHERE flow_id = $1', [flow.id]);
    expect(Number(rows[0].count)).toBe(1);
    // Once answered, every retry gets that answer.
    expectReplayOf(await api.http.post(path).set(rossi.auth).set('Idempotency-Key', key).send(body).expect(201), created[0]);
  });

  it('answers 409 idempotency_key_in_progress while the first request runs, and its answer after', async () => {
    const key = newKey();
    const flow = await fixtures.flow(invoice, { amount: '40.00' });
    const transaction = await fixtures.transaction(account, { amount: '40.00', date: '2026-03-30' });
    const body = { flow_id: flow.id, transaction_id: transaction.id };
    const path = `/api/v1/companies/${rossi.companyId}/reconciliations`;
    // Hold the document's row lock, which every reconciliation of its flows takes first: the first request waits on it.
    const holder = api.db.createQueryRunner();
    await holder.startTransaction();
    await holder.query('SELECT id FROM documents WHERE id = $1 FOR UPDATE', [invoice.id]);
    const first = api.http
      .post(path)
      .set(rossi.auth)
      .set('Idempotency-Key', key)
      .send(body)
      .then((r) => r);
    while ((await keyRows(key)).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    try {
      const second = await api.http.post(path).set(rossi.auth).set('Idempotency-Key', key).send(body);
      expectError(second, 409, 'idempotency_key_in_progress', KEY);
      expect(second.headers['retry-after']).toBe('1');
    } finally {
      await holder.commitTransaction();
      await holder.release();
    }
    const answered = await first;
    expect(answered.status).toBe(201);
    expectReplayOf(await api.http.post(path).set(rossi.auth).set('Idempotency-Key', key).send(body).expect(201), answered);
  });

  it('stores 4xx answers as the key’s answer: the same request gets the same error, a corrected one needs a new key', async () => {
    const key = newKey();
    const first = await createCategory(key, { name: 'x'.repeat(1000) });
    expect(first.status).toBe(422);
    const retry = await createCategory(key, { name: 'x'.repeat(1000) });
    expectReplayOf(retry, first);
    expectError(await createCategory(key, { name: 'Corretta' }), 422, 'idempotency_key_reused', KEY);
    await createCategory(newKey(), { name: 'Corretta' }).expect(201);
    // A 404 (unknown flow) is an answer too.
    const missing = { flow_id: '00000000-0000-4000-8000-000000000000', transaction_id: '00000000-0000-4000-8000-000000000001' };
    const path = `/api/v1/companies/${rossi.companyId}/reconciliations`;
    const key404 = newKey();
    const notFound = await api.http.post(path).set(rossi.auth).set('Idempotency-Key', key404).send(missing).expect(404);
    expectReplayOf(await api.http.post(path).set(rossi.auth).set('Idempotency-Key', key404).send(missing).expect(404), notFound);
  });

  it('does not store 5xx answers: the key is free again and a retry runs', async () => {
    const key = newKey();
    await api.db.query(`CREATE FUNCTION refuse_categories() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`);
    await api.db.query(`CREATE TRIGGER refuse_categories BEFORE INSERT ON categories FOR EACH ROW EXECUTE FUNCTION refuse_categories()`);
    try {
      expectError(await createCategory(key, { name: 'Energia' }), 500, 'internal_server_error');
      expect(await keyRows(key)).toEqual([]);
    } finally {
      await api.db.query('DROP TRIGGER refuse_categories ON categories');
      await api.db.query('DROP FUNCTION refuse_categories');
    }
    const retry = await createCategory(key, { name: 'Energia' }).expect(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countCategories('Energia')).toBe(1);
  });

  it('does not touch the key for requests refused before they reach the route (unreadable body, no access)', async () => {
    const key = newKey();
    await api.http.post(categories).set(rossi.auth).set('Idempotency-Key', key).set('Content-Type', 'application/json').send('{"name":').expect(400);
    await api.http
      .post(`/api/v1/companies/${verdi.companyId}/categories`)
      .set({ Authorization: 'Bearer nope' })
      .set('Idempotency-Key', key)
      .send({})
      .expect(401);
    expect(await keyRows(key)).toEqual([]);
    await createCategory(key, { name: 'Telefono' }).expect(201);
  });

  it('refuses a malformed key with 400 invalid_idempotency_key', async () => {
    for (const bad of ['', 'x'.repeat(256), 'with space', 'tab\there']) {
      expectError(await createCategory(bad, { name: 'Mai' }), 400, 'invalid_idempotency_key', KEY);
    }
    // Two headers arrive joined with ", ": not one key.
    const twice = await api.http
      .post(categories)
      .set(rossi.auth)
      .set('Idempotency-Key', ['a', 'b'] as unknown as string)
      .send({ name: 'Mai' });
    expectError(twice, 400, 'invalid_idempotency_key', KEY);
    expect(await countCategories('Mai')).toBe(0);
    await createCategory('x'.repeat(255), { name: 'Lunga' }).expect(201);
    await createCategory('!~"#$%&()*+,-./:;<=>?@[\\]^_`{|}', { name: 'Simboli' }).expect(201);
  });

  it('keys live 24 hours: an expired key runs the request again, and the worker deletes it', async () => {
    const key = newKey();
    await createCategory(key, { name: 'Scadenza' }).expect(201);
    const keys = api.app.get(IdempotencyService);
    const sweeper = new IdempotencySweeper(keys);
    expect(await sweeper.sweep()).toBe(0);
    const [{ hours }] = await api.db.query(`SELECT round(extract(epoch FROM expires_at - created_at) / 3600) AS hours FROM idempotency_keys WHERE key = $1`, [
      key,
    ]);
    expect(Number(hours)).toBe(24);
    await api.db.query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second', created_at = now() - interval '24 hours 1 second' WHERE key = $1`,
      [key],
    );
    const again = await createCategory(key, { name: 'Scadenza' }).expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await countCategories('Scadenza')).toBe(2);
    // An expired key is free for another request too; and expired rows are swept.
    await api.db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
    expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
    expect(await keyRows(key)).toEqual([]);
  });

  it('never sweeps a key that a request claims again while the sweeper runs', async () => {
    const key = newKey();
    await createCategory(key, { name: 'Ripresa' }).expect(201);
    await api.db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
    // A request takes the expired key over (what claim()'s ON CONFLICT does), its transaction still open.
    const claimant = new pg.Client({ connectionString: api.config.databaseUrl });
    await claimant.connect();
    try {
      await claimant.query('BEGIN');
      await claimant.query(
        `UPDATE idempotency_keys SET status = 'in_progress', locked_until = now() + interval '60 seconds', expires_at = now() + interval '24 hours',
                response_status = NULL, response_headers = NULL, response_body = NULL, created_at = now()
          WHERE key = $1`,
        [key],
      );
      // The sweeper found the row expired and now waits for the claimant's row lock.
      const sweeping = new IdempotencySweeper(api.app.get(IdempotencyService)).sweep();
      for (;;) {
        const waiting = await api.db.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%DELETE FROM idempotency_keys%'`,
        );
        if (waiting.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await claimant.query('COMMIT');
      expect(await sweeping).toBe(0);
    } finally {
      await claimant.end();
    }
    expect(await keyRows(key)).toEqual([{ status: 'in_progress', company_id: rossi.companyId, response_body: null }]);
  });

  it('lets a retry take over a claim abandoned by a request that died, once its lease is over', async () => {
    const key = newKey();
    const fingerprint = requestFingerprint('POST', categories, { name: 'Orfana' });
    const insert = (lockedUntil: string) =>
      api.db.query(
        `INSERT INTO idempotency_keys (integrator_id, environment, company_id, key, fingerprint, status, locked_until, expires_at)
         VALUES ($1, 'development', $2, $3, $4, 'in_progress', now() + $5::interval, now() + interval '24 hours')
         ON CONFLICT (integrator_id, environment, company_id, key) DO UPDATE SET locked_until = EXCLUDED.locked_until`,
        [rossi.integratorId, rossi.companyId, key, fingerprint, lockedUntil],
      );
    await insert('30 seconds');
    expectError(await createCategory(key, { name: 'Orfana' }), 409, 'idempotency_key_in_progress', KEY);
    await insert('-1 second');
    // Another body does not take a lapsed claim over.
    expectError(await createCategory(key, { name: 'Altra' }), 422, 'idempotency_key_reused', KEY);
    await createCategory(key, { name: 'Orfana' }).expect(201);
    expect(await countCategories('Orfana')).toBe(1);
  });

  it('replays a created webhook endpoint with its secret, which is stored sealed', async () => {
    const key = newKey();
    const body = { url: 'http://127.0.0.1:9/hooks', description: 'ERP' };
    const first = await api.http.post('/api/v1/webhook-endpoints').set(rossi.auth).set('Idempotency-Key', key).send(body).expect(201);
    const retry = await api.http.post('/api/v1/webhook-endpoints').set(rossi.auth).set('Idempotency-Key', key).send(body).expect(201);
    expectReplayOf(retry, first);
    const rows = await keyRows(key);
    expect(rows).toEqual([{ status: 'completed', company_id: null, response_body: expect.stringMatching(/^v1\./) }]);
    expect(rows[0].response_body).not.toContain(first.body.secret.slice(6));
    const endpoints = await api.db.query('SELECT count(*) FROM webhook_endpoints WHERE integrator_id = $1', [rossi.integratorId]);
    expect(Number(endpoints[0].count)).toBe(1);
  });

  it('replays an empty-bodied answer (a POST without a body) and ignores the header on other methods', async () => {
    const endpoint = (await api.http.post('/api/v1/webhook-endpoints').set(rossi.auth).send({ url: 'http://127.0.0.1:9/rotate' }).expect(201)).body;
    const key = newKey();
    const rotate = () => api.http.post(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).set(rossi.auth).set('Idempotency-Key', key);
    const first = await rotate().expect(200);
    const retry = await rotate().expect(200);
    expectReplayOf(retry, first);
    // PATCH and DELETE are idempotent by nature: the header is not read there.
    const patched = await api.http
      .patch(`/api/v1/webhook-endpoints/${endpoint.id}`)
      .set(rossi.auth)
      .set('Idempotency-Key', 'not read here')
      .send({ description: 'x' });
    expect(patched.status).toBe(200);
  });

  it('declares the header and its errors on every POST of the OpenAPI document, and nowhere else', async () => {
    const document = (await api.http.get('/api/v1/openapi.json').expect(200)).body;
    const posts: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { parameters?: Array<{ $ref?: string }>; responses: Record<string, unknown> }>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const declared = (operation.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
        expect([method, path, declared]).toEqual([method, path, method === 'post']);
        if (method !== 'post') continue;
        posts.push(path);
        expect([path, Object.keys(operation.responses)]).toEqual([path, expect.arrayContaining(['400', '409', '422'])]);
      }
    }
    expect(posts.length).toBeGreaterThanOrEqual(7);
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
  });
});
