import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { In } from 'typeorm';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { exampleInvoice } from '../invoices/invoice-example.js';

interface Listed {
  id: string;
  type: string;
  company_id: string;
}

describe('GET /events: the events of every company the key may read, in commit order', () => {
  let api: TestApi;
  /** Integrator A, granted two companies; `ungranted` exists but was granted to nobody. */
  let rossi: Tenant;
  let bianchi: string;
  let ungranted: string;
  /** Integrator B and its company. */
  let verdi: Tenant;

  beforeAll(async () => {
    // Lists are read page by page, and again until the events show: many more calls than a minute's rate allows.
    api = await startApi({ RATE_LIMIT_POINTS: '1000000' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    bianchi = (await api.integrators.createCompany({ name: 'Bianchi S.r.l.', vat_number: 'IT01234567897', country: 'IT', fiscal_regime: 'RF01' })).id;
    ungranted = (await api.integrators.createCompany({ name: 'Neri S.r.l.', country: 'IT', fiscal_regime: 'RF01' })).id;
    await api.integrators.grant(rossi.integratorId, bianchi);
    for (const [tenant, number] of [
      [rossi, 'AE-1'],
      [verdi, 'AE-2'],
      [rossi, 'AE-3'],
    ] as const) {
      await api.http
        .post(`/api/v1/companies/${tenant.companyId}/documents/invoice`)
        .set(tenant.auth)
        .send(exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number }) as object)
        .expect(201);
    }
    for (const companyId of [bianchi, ungranted, bianchi]) await record(companyId);
    await record(rossi.companyId, undefined, 'transaction.created');
  });
  afterAll(() => api.close());

  /** An event of the company, recorded in its own transaction (or in `client`'s, left open). */
  const record = async (companyId: string, client?: pg.Client, type = 'document.updated'): Promise<string> => {
    const sql = `INSERT INTO events (company_id, type, payload, created_at, api_version) VALUES ($1, $2, $3, now(), '1.2.0') RETURNING id`;
    const values = [companyId, type, { id: randomUUID(), version: 2 }];
    const rows: Array<{ id: string }> = client ? (await client.query(sql, values)).rows : await api.db.query(sql, values);
    return rows[0].id;
  };
  /** What the outbox holds for the companies, in commit order: what the list must show. */
  const recorded = async (companies: string[], types?: string[]): Promise<string[]> =>
    (await api.db.getRepository(DomainEvent).find({ where: { companyId: In(companies), ...(types ? { type: In(types) } : {}) } }))
      .sort((a, b) => Number(BigInt(a.transactionId) - BigInt(b.transactionId) || BigInt(a.position) - BigInt(b.position)))
      .map((event) => event.id);
  /** Every page from `cursor` on, with the cursor to resume from. */
  const listAll = async (query = '', cursor: string | null = null, auth = rossi.auth): Promise<{ events: Listed[]; cursor: string | null }> => {
    const events: Listed[] = [];
    for (;;) {
      const page = await api.http
        .get(`/api/v1/events?page_size=2${query}${cursor ? `&cursor=${cursor}` : ''}`)
        .set(auth)
        .expect(200);
      events.push(...page.body.data);
      if (!page.body.page.cursor) return { events, cursor };
      cursor = page.body.page.cursor;
    }
  };
  /** The list holds an event back while any older transaction in the cluster runs (another test file's): wait for it. */
  const listedEventually = async (ids: string[], query = '', auth = rossi.auth): Promise<Listed[]> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { events } = await listAll(query, null, auth);
      if (ids.every((id) => events.some((event) => event.id === id)) || Date.now() > deadline) return events;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it("lists the events of every granted company, merged in commit order, and none of another integrator's or an ungranted company's", async () => {
    const expected = await recorded([rossi.companyId, bianchi]);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    const listed = await listedEventually(expected);
    expect(listed.map((event) => event.id)).toEqual(expected);
    expect(new Set(listed.map((event) => event.company_id))).toEqual(new Set([rossi.companyId, bianchi]));

    const theirs = await listedEventually(await recorded([verdi.companyId]), '', verdi.auth);
    expect(theirs.map((event) => event.id)).toEqual(await recorded([verdi.companyId]));
    expect(new Set(theirs.map((event) => event.company_id))).toEqual(new Set([verdi.companyId]));
  });

  it('orders two companies by transaction, not by commit: a page never hands out a cursor past a transaction still running', async () => {
    const { cursor } = await listAll();
    expect(cursor).not.toBeNull();
    const url = api.config.databaseUrl;
    const [earlier, later] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([earlier.connect(), later.connect()]);
    try {
      await earlier.query('BEGIN');
      const first = await record(rossi.companyId, earlier);
      await later.query('BEGIN');
      const second = await record(bianchi, later);
      await later.query('COMMIT');

      const meanwhile = await listAll('', cursor);
      expect(meanwhile.events).toEqual([]);

      await earlier.query('COMMIT');
      await listedEventually([first, second]);
      const resumed = await listAll('', meanwhile.cursor ?? cursor);
      expect(resumed.events.map((event) => [event.id, event.company_id])).toEqual([
        [first, rossi.companyId],
        [second, bianchi],
      ]);
      // Nothing after: an empty page, without a cursor (the poller keeps the one it had).
      const after = await api.http.get(`/api/v1/events?cursor=${resumed.cursor}`).set(rossi.auth).expect(200);
      expect(after.body).toEqual({ data: [], page: { cursor: null, size: 25 } });
    } finally {
      await Promise.all([earlier.end(), later.end()]);
    }
  });

  it('keeps to the companies filter[company_id] names, and answers 403 for a company the key may not read, whether it exists or not', async () => {
    const ofBianchi = await recorded([bianchi]);
    await listedEventually(await recorded([rossi.companyId, bianchi]));
    expect((await listAll(`&filter[company_id__in]=${bianchi}`)).events.map((event) => event.id)).toEqual(ofBianchi);
    expect((await listAll(`&filter[company_id]=${bianchi.toUpperCase()}`)).events.map((event) => event.id)).toEqual(ofBianchi);
    expect((await listAll(`&filter[company_id__notIn]=${rossi.companyId}`)).events.map((event) => event.id)).toEqual(ofBianchi);
    expect((await listAll(`&filter[company_id__in]=${rossi.companyId},${bianchi}`)).events.map((event) => event.id)).toEqual(
      await recorded([rossi.companyId, bianchi]),
    );

    for (const other of [verdi.companyId, ungranted, randomUUID()]) {
      const refused = await api.http.get(`/api/v1/events?filter[company_id__in]=${bianchi},${other}`).set(rossi.auth);
      expectError(refused, 403, 'forbidden', '/query/filter[company_id__in]', `This API key has no access to the company ${other}.`);
      expectError(await api.http.get(`/api/v1/events?filter[company_id]=${other}`).set(rossi.auth), 403, 'forbidden', '/query/filter[company_id]');
    }
    expectError(await api.http.get('/api/v1/events?filter[company_id]=42').set(rossi.auth), 400, 'invalid_query_parameter', '/query/filter[company_id]');
  });

  it('lists only the events whose objects the key may read; a key of an integrator granted nothing gets an empty list', async () => {
    const documentsOnly = await api.integrators.createKey(rossi.integratorId, 'development', 'documents only', 'documents:read');
    const auth = { Authorization: `Bearer ${documentsOnly.key}` };
    const documentTypes = ['document.created', 'document.updated', 'document.deleted'];
    const expected = await recorded([rossi.companyId, bianchi], documentTypes);
    expect(expected.length).toBeLessThan((await recorded([rossi.companyId, bianchi])).length);
    expect((await listedEventually(expected, '', auth)).map((event) => event.id)).toEqual(expected);

    const accountsOnly = await api.integrators.createKey(rossi.integratorId, 'development', 'accounts only', 'accounts:read');
    const none = await api.http
      .get('/api/v1/events')
      .set({ Authorization: `Bearer ${accountsOnly.key}` })
      .expect(200);
    expect(none.body).toEqual({ data: [], page: { cursor: null, size: 25 } });

    const lonely = await api.integrators.createIntegrator('Senza Aziende S.r.l.');
    const key = await api.integrators.createKey(lonely.id, 'development', 'default', '*');
    const empty = await api.http
      .get('/api/v1/events')
      .set({ Authorization: `Bearer ${key.key}` })
      .expect(200);
    expect(empty.body).toEqual({ data: [], page: { cursor: null, size: 25 } });
  });

  it('answers 400 to bad cursors, filters and parameters, never 500', async () => {
    const { cursor } = await listAll();
    const bad: Array<[string, string]> = [
      ['cursor=nonsense!', 'invalid_cursor'],
      [`filter[company_id]=${bianchi}&cursor=${cursor}`, 'invalid_cursor'],
      ['filter[company_id__in]=', 'invalid_query_parameter'],
      ['filter[company_id__gt]=x', 'invalid_query_parameter'],
      ['filter[type]=invoice.paid', 'invalid_query_parameter'],
      ['sort=-created_at', 'invalid_query_parameter'],
      ['expand=data', 'invalid_query_parameter'],
    ];
    for (const [query, code] of bad) {
      const response = await api.http.get(`/api/v1/events?${query}`).set(rossi.auth);
      expect([query, response.status, response.body.errors?.[0]?.code]).toEqual([query, 400, code]);
    }
  });
});
