import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { byUuid, expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from './account.entity.js';

describe('accounts', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let current: Account;
  let savings: Account;
  let usd: Account;
  let bare: Account;
  let twinA: Account;
  let twinB: Account;
  let foreign: Account;
  let base: string;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const fixtures = new Fixtures(api.db, rossi.companyId);
    current = await fixtures.account({
      nickname: 'Conto corrente Intesa',
      currency: 'EUR',
      currentBalance: '15230.40',
      availableBalance: '20230.40',
      creditLimit: '5000.00',
      balanceDate: new Date('2026-03-31T18:00:00Z'),
      createdAt: new Date('2026-01-01T08:00:00Z'),
    });
    savings = await fixtures.account({
      nickname: 'Deposito',
      currentBalance: '0.5',
      availableBalance: '0.5',
      creditLimit: null,
      createdAt: new Date('2026-01-02T08:00:00Z'),
    });
    usd = await fixtures.account({
      nickname: 'USD account',
      currency: 'USD',
      currentBalance: '999999999999999.123456',
      createdAt: new Date('2026-01-03T08:00:00Z'),
    });
    bare = await fixtures.account({
      nickname: null,
      currency: null,
      currentBalance: null,
      availableBalance: null,
      creditLimit: null,
      createdAt: new Date('2026-01-04T08:00:00Z'),
    });
    // Two accounts created at the same instant: ties are broken by id.
    const tie = new Date('2026-01-05T08:00:00Z');
    [twinA, twinB] = [await fixtures.account({ nickname: 'Twin', createdAt: tie }), await fixtures.account({ nickname: 'Twin', createdAt: tie })].sort((a, b) =>
      byUuid(a.id, b.id),
    );
    foreign = await new Fixtures(api.db, verdi.companyId).account({ nickname: 'Verdi Unicredit' });
    base = `/api/v1/companies/${rossi.companyId}/accounts`;
  });

  afterAll(() => api.close());

  it("lists the company's accounts oldest first with every member, money as exact strings", async () => {
    const response = await api.http.get(base).set(rossi.auth).expect(200);
    expect(response.body.page).toEqual({ cursor: null, size: 25 });
    expect(ids(response)).toEqual([current.id, savings.id, usd.id, bare.id, twinA.id, twinB.id]);
    expect(response.body.data[0]).toEqual({
      id: current.id,
      nickname: 'Conto corrente Intesa',
      currency: 'EUR',
      current_balance: { amount: '15230.40', currency: 'EUR' },
      available_balance: { amount: '20230.40', currency: 'EUR' },
      credit_limit: { amount: '5000.00', currency: 'EUR' },
      balance_date: '2026-03-31T18:00:00.000Z',
      created_at: '2026-01-01T08:00:00.000Z',
    });
    expect(response.body.data[1]).toMatchObject({ current_balance: { amount: '0.5', currency: 'EUR' }, credit_limit: null, balance_date: null });
    expect(response.body.data[2].current_balance).toEqual({ amount: '999999999999999.123456', currency: 'USD' });
    expect(response.body.data[3]).toEqual({
      id: bare.id,
      nickname: null,
      currency: null,
      current_balance: null,
      available_balance: null,
      credit_limit: null,
      balance_date: null,
      created_at: '2026-01-04T08:00:00.000Z',
    });
    expect(ids(response)).not.toContain(foreign.id);
  });

  it('sorts by -created_at, ties by id in the same direction', async () => {
    const response = await api.http.get(`${base}?sort=-created_at`).set(rossi.auth).expect(200);
    expect(ids(response)).toEqual([twinB.id, twinA.id, bare.id, usd.id, savings.id, current.id]);
  });

  it('filters by id with eq, neq, in, notIn and empty', async () => {
    const get = (query: string) => api.http.get(`${base}?${query}`).set(rossi.auth).expect(200).then(ids);
    expect(await get(`filter[id]=${usd.id}`)).toEqual([usd.id]);
    expect(await get(`filter[id__eq]=${usd.id.toUpperCase()}`)).toEqual([usd.id]);
    expect(await get(`filter[id__neq]=${usd.id}`)).toEqual([current.id, savings.id, bare.id, twinA.id, twinB.id]);
    expect(await get(`filter[id__in]=${bare.id},${current.id},${foreign.id}`)).toEqual([current.id, bare.id]);
    expect(await get(`filter[id__notIn]=${bare.id},${current.id}`)).toEqual([savings.id, usd.id, twinA.id, twinB.id]);
    expect(await get('filter[id__empty]=true')).toEqual([]);
    expect(await get('filter[id__empty]=false')).toHaveLength(6);
    // Another company's id filters to nothing: never its row.
    expect(await get(`filter[id]=${foreign.id}`)).toEqual([]);
  });

  it('refuses filters, sorts and parameters it does not declare', async () => {
    expectError(await api.http.get(`${base}?filter[nickname]=Twin`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/filter[nickname]');
    expectError(await api.http.get(`${base}?filter[id__ilike]=abc`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/filter[id__ilike]');
    expectError(await api.http.get(`${base}?filter[id]=not-a-uuid`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/filter[id]');
    expectError(await api.http.get(`${base}?sort=nickname`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/sort');
    expectError(await api.http.get(`${base}?expand=transactions`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/expand');
  });

  it('pages through the accounts with page_size 2', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `page_size=2&cursor=${cursor}` : 'page_size=2';
      const response = await api.http.get(`${base}?${query}`).set(rossi.auth).expect(200);
      expect(response.body.page.size).toBe(2);
      seen.push(...ids(response));
      cursor = response.body.page.cursor;
    } while (cursor);
    expect(seen).toEqual([current.id, savings.id, usd.id, bare.id, twinA.id, twinB.id]);
  });

  it('reads one account', async () => {
    const response = await api.http.get(`${base}/${usd.id}`).set(rossi.auth).expect(200);
    expect(response.body).toEqual({
      id: usd.id,
      nickname: 'USD account',
      currency: 'USD',
      current_balance: { amount: '999999999999999.123456', currency: 'USD' },
      available_balance: { amount: '20230.40', currency: 'USD' },
      credit_limit: { amount: '5000.00', currency: 'USD' },
      balance_date: null,
      created_at: '2026-01-03T08:00:00.000Z',
    });
  });

  it("answers 404 for an unknown or malformed id and 403 for another company's account", async () => {
    expectError(await api.http.get(`${base}/00000000-0000-4000-8000-000000000000`).set(rossi.auth), 404, 'not_found', undefined, 'Account was not found.');
    expectError(await api.http.get(`${base}/not-a-uuid`).set(rossi.auth), 404, 'not_found');
    expectError(await api.http.get(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
    expectError(await api.http.get(`${base}/${usd.id}?expand=category`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/expand');
  });
});
