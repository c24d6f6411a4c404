import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { byUuid, expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import type { Category } from '../categories/category.entity.js';
import type { Flow } from '../flows/flow.entity.js';
import type { Reconciliation } from './reconciliation.entity.js';
import type { Transaction } from './transaction.entity.js';

describe('transactions', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let intesa: Account;
  let unicredit: Account;
  let utenze: Category;
  let energia: Category;
  let bonifico: Transaction;
  let enel: Transaction;
  let pos: Transaction;
  let stipendi: Transaction;
  let interessi: Transaction;
  let anonymous: Transaction;
  let foreign: Transaction;
  let flowA: Flow;
  let flowB: Flow;
  let recA: Reconciliation;
  let recB: Reconciliation;

  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const fixtures = new Fixtures(api.db, rossi.companyId);
    intesa = await fixtures.account({ nickname: 'Intesa' });
    unicredit = await fixtures.account({ nickname: 'Unicredit' });
    utenze = await fixtures.category({ name: 'Utenze' });
    energia = await fixtures.category({ name: 'Energia', parentId: utenze.id });
    bonifico = await fixtures.transaction(intesa, { createdAt: at('2026-04-01T08:00:00Z') });
    enel = await fixtures.transaction(intesa, {
      type: 'DEBIT',
      amount: '180.35',
      date: '2026-03-15',
      valueDate: '2026-03-14',
      bookingDateTime: at('2026-03-15T06:00:00Z'),
      description: 'ADDEBITO SDD ENEL ENERGIA SPA',
      cleanDescription: 'Enel Energia 100% green',
      counterpartName: 'Enel Energia S.p.A.',
      categoryId: utenze.id,
      subcategoryId: energia.id,
      createdAt: at('2026-04-01T08:00:01Z'),
    });
    pos = await fixtures.transaction(unicredit, {
      type: 'DEBIT',
      amount: '1220',
      date: '2026-03-30',
      bookingDateTime: null,
      valueDate: null,
      description: 'PAGAMENTO POS',
      cleanDescription: 'Pagamento POS',
      counterpartName: null,
      createdAt: at('2026-04-01T08:00:02Z'),
    });
    stipendi = await fixtures.transaction(unicredit, {
      type: 'DEBIT',
      amount: '10000.000001',
      date: '2026-02-27',
      bookingDateTime: at('2026-02-27T15:30:00Z'),
      cleanDescription: 'Stipendi febbraio',
      counterpartName: 'Dipendenti',
      createdAt: at('2026-04-01T08:00:03Z'),
    });
    interessi = await fixtures.transaction(intesa, {
      amount: '0.01',
      date: '2026-03-31',
      bookingDateTime: at('2026-03-31T23:59:59.999Z'),
      cleanDescription: 'Interessi_creditori',
      counterpartName: '',
      createdAt: at('2026-04-01T08:00:04Z'),
    });
    anonymous = await fixtures.transaction(intesa, {
      amount: '99.5',
      date: '2026-01-02',
      bookingDateTime: null,
      description: null,
      cleanDescription: null,
      counterpartName: null,
      createdAt: at('2026-04-01T08:00:04Z'),
    });
    const invoice = await fixtures.document();
    flowA = await fixtures.flow(invoice, { amount: '610.00', expectedPaymentDate: '2026-03-31' });
    flowB = await fixtures.flow(invoice, { amount: '610.00', expectedPaymentDate: '2026-04-30' });
    recA = await fixtures.reconciliation(flowA, bonifico, { amount: '600.00', createdAt: at('2026-04-02T08:00:00Z') });
    recB = await fixtures.reconciliation(flowB, bonifico, { amount: '600.00', createdAt: at('2026-04-02T08:00:01Z') });
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreign = await verdiFixtures.transaction(await verdiFixtures.account());
    base = `/api/v1/companies/${rossi.companyId}/transactions`;
  });

  afterAll(() => api.close());

  const list = (query = '') => api.http.get(`${base}${query ? `?${query}` : ''}`).set(rossi.auth);
  const listIds = async (query: string) => ids(await list(query).expect(200));

  const bonificoBody = () => ({
    id: bonifico.id,
    account_id: intesa.id,
    type: 'CREDIT',
    amount: { amount: '1220.00', currency: 'EUR' },
    booking_date_time: '2026-03-30T10:15:00.000Z',
    date: '2026-03-30',
    value_date: '2026-03-30',
    description: 'BONIFICO SEPA DA BIANCHI IMPIANTI SRL RIF. FV-2026/0001',
    clean_description: 'Bonifico da Bianchi Impianti',
    counterpart_name: 'Bianchi Impianti S.r.l.',
    created_at: '2026-04-01T08:00:00.000Z',
    category_id: null,
    category: null,
    subcategory_id: null,
    subcategory: null,
    reconciliations: null,
  });

  const flowBody = (flow: Flow) => ({
    id: flow.id,
    document_id: flow.documentId,
    amount: { amount: '610.00', currency: 'EUR' },
    paid_amount: { amount: '600.00', currency: 'EUR' },
    payment_status: 'TO_PAY',
    payment_method: 'TRANSFER',
    expected_payment_date: flow.expectedPaymentDate,
    payment_date: null,
    created_at: flow.createdAt.toISOString(),
  });

  const reconciliationBody = (r: Reconciliation, flow: Flow | null) => ({
    id: r.id,
    flow_id: r.flowId,
    transaction_id: r.transactionId,
    amount: { amount: '600.00', currency: 'EUR' },
    flow: flow ? flowBody(flow) : null,
    transaction: null,
    created_at: r.createdAt.toISOString(),
  });

  describe('list', () => {
    it("lists every account's transactions, latest date first, ties by id descending", async () => {
      const response = await list().expect(200);
      expect(ids(response)).toEqual([interessi.id, ...[bonifico.id, pos.id].sort(byUuid).reverse(), enel.id, stipendi.id, anonymous.id]);
      expect(response.body.data.find((t: { id: string }) => t.id === bonifico.id)).toEqual(bonificoBody());
      expect(response.body.data.find((t: { id: string }) => t.id === anonymous.id)).toMatchObject({
        booking_date_time: null,
        description: null,
        clean_description: null,
        counterpart_name: null,
        amount: { amount: '99.5', currency: 'EUR' },
      });
      expect(ids(response)).not.toContain(foreign.id);
    });

    it('expands category and subcategory', async () => {
      const response = await list(`expand=category,subcategory&filter[type]=DEBIT&sort=date`).expect(200);
      expect(ids(response)).toEqual([stipendi.id, enel.id, pos.id]);
      expect(response.body.data[1]).toMatchObject({
        category_id: utenze.id,
        category: { id: utenze.id, name: 'Utenze' },
        subcategory_id: energia.id,
        subcategory: { id: energia.id, name: 'Energia' },
        reconciliations: null,
      });
      expect(response.body.data[0]).toMatchObject({ category: null, subcategory: null });
    });

    it('expands reconciliations, and their flows with reconciliations.flow', async () => {
      const plain = await list(`expand=reconciliations&filter[account_id]=${intesa.id}&sort=created_at&page_size=2`).expect(200);
      expect(plain.body.data[0]).toEqual({ ...bonificoBody(), reconciliations: [reconciliationBody(recA, null), reconciliationBody(recB, null)] });
      expect(plain.body.data[1].reconciliations).toEqual([]);
      const nested = await list(`expand=reconciliations.flow&filter[account_id]=${intesa.id}&sort=created_at&page_size=1`).expect(200);
      expect(nested.body.data[0]).toEqual({ ...bonificoBody(), reconciliations: [reconciliationBody(recA, flowA), reconciliationBody(recB, flowB)] });
      const all = await list(`expand=category,subcategory,reconciliations,reconciliations.flow&sort=created_at&page_size=1`).expect(200);
      expect(all.body.data[0].reconciliations).toHaveLength(2);
      expectError(await list('expand=reconciliations.transaction'), 400, 'invalid_query_parameter', '/query/expand');
      expectError(await list('expand=flow'), 400, 'invalid_query_parameter', '/query/expand');
    });

    it('filters by account_id', async () => {
      expect(await listIds(`filter[account_id]=${unicredit.id}&sort=date`)).toEqual([stipendi.id, pos.id]);
      expect(await listIds(`filter[account_id__neq]=${intesa.id}&sort=date`)).toEqual([stipendi.id, pos.id]);
      expect(await listIds(`filter[account_id__in]=${unicredit.id},${foreign.id}&sort=date`)).toEqual([stipendi.id, pos.id]);
      expect(await listIds(`filter[account_id__notIn]=${intesa.id}&sort=date`)).toEqual([stipendi.id, pos.id]);
      expect(await listIds('filter[account_id__empty]=true')).toEqual([]);
      expectError(await list('filter[account_id]=intesa'), 400, 'invalid_query_parameter', '/query/filter[account_id]');
    });

    it('filters by booking_date_time (date-time operators, nullable)', async () => {
      expect(await listIds('filter[booking_date_time]=2026-03-15T06:00:00Z')).toEqual([enel.id]);
      expect(await listIds('filter[booking_date_time]=2026-03-15T07:00:00%2B01:00')).toEqual([enel.id]);
      expect(await listIds('filter[booking_date_time__gt]=2026-03-30T10:15:00Z')).toEqual([interessi.id]);
      expect(await listIds('filter[booking_date_time__gte]=2026-03-30T10:15:00Z')).toEqual([interessi.id, bonifico.id]);
      expect(await listIds('filter[booking_date_time__lt]=2026-03-15T06:00:00.001Z')).toEqual([enel.id, stipendi.id]);
      expect(await listIds('filter[booking_date_time__lte]=2026-03-01&sort=date')).toEqual([stipendi.id]);
      expect(await listIds('filter[booking_date_time__neq]=2026-03-15T06:00:00Z&sort=created_at')).toEqual([
        bonifico.id,
        pos.id,
        stipendi.id,
        ...[interessi.id, anonymous.id].sort(byUuid),
      ]);
      expect(await listIds('filter[booking_date_time__in]=2026-03-15T06:00:00Z,2026-03-31T23:59:59.999Z')).toEqual([interessi.id, enel.id]);
      expect(await listIds('filter[booking_date_time__notIn]=2026-03-15T06:00:00Z&filter[booking_date_time__empty]=false')).toEqual([
        interessi.id,
        bonifico.id,
        stipendi.id,
      ]);
      expect(await listIds('filter[booking_date_time__empty]=true&sort=date')).toEqual([anonymous.id, pos.id]);
      expectError(await list('filter[booking_date_time]=2026-03-15 06:00'), 400, 'invalid_query_parameter', '/query/filter[booking_date_time]');
    });

    it('filters by date (date operators)', async () => {
      expect(await listIds('filter[date]=2026-03-30&sort=created_at')).toEqual([bonifico.id, pos.id]);
      expect(await listIds('filter[date__neq]=2026-03-30&sort=date')).toEqual([anonymous.id, stipendi.id, enel.id, interessi.id]);
      expect(await listIds('filter[date__gt]=2026-03-15&sort=date,created_at')).toEqual([bonifico.id, pos.id, interessi.id]);
      expect(await listIds('filter[date__gte]=2026-03-15&filter[date__lte]=2026-03-30&sort=date,created_at')).toEqual([enel.id, bonifico.id, pos.id]);
      expect(await listIds('filter[date__lt]=2026-03-01&sort=date')).toEqual([anonymous.id, stipendi.id]);
      expect(await listIds('filter[date__in]=2026-01-02,2026-03-31&sort=date')).toEqual([anonymous.id, interessi.id]);
      expect(await listIds('filter[date__notIn]=2026-01-02,2026-03-31,2026-03-30&sort=date')).toEqual([stipendi.id, enel.id]);
      expect(await listIds('filter[date__empty]=true')).toEqual([]);
      expectError(await list('filter[date]=2026-3-1'), 400, 'invalid_query_parameter', '/query/filter[date]');
    });

    it('filters by type (enum)', async () => {
      expect(await listIds('filter[type]=CREDIT&sort=date')).toEqual([anonymous.id, bonifico.id, interessi.id]);
      expect(await listIds('filter[type__neq]=CREDIT&sort=date')).toEqual([stipendi.id, enel.id, pos.id]);
      expect(await listIds('filter[type__in]=CREDIT,DEBIT')).toHaveLength(6);
      expect(await listIds('filter[type__notIn]=DEBIT&sort=date')).toEqual([anonymous.id, bonifico.id, interessi.id]);
      expectError(await list('filter[type]=credit'), 400, 'invalid_query_parameter', '/query/filter[type]');
      expectError(await list('filter[type__lt]=DEBIT'), 400, 'invalid_query_parameter', '/query/filter[type__lt]');
    });

    it('filters by clean_description and counterpart_name (strings, nullable)', async () => {
      expect(await listIds('filter[clean_description]=Pagamento POS')).toEqual([pos.id]);
      expect(await listIds('filter[clean_description__ilike]=ENERGIA')).toEqual([enel.id]);
      expect(await listIds('filter[clean_description__ilike]=100%25 green')).toEqual([]);
      expect(await listIds('filter[clean_description__ilike]=%25100%25 green')).toEqual([enel.id]);
      expect(await listIds('filter[clean_description__ilike]=interessi_')).toEqual([interessi.id]);
      expect(await listIds('filter[clean_description__ilike]=stipendi_')).toEqual([]);
      expect(await listIds('filter[clean_description__empty]=true')).toEqual([anonymous.id]);
      expect(await listIds('filter[clean_description__neq]=Pagamento POS&sort=date')).toEqual([anonymous.id, stipendi.id, enel.id, bonifico.id, interessi.id]);
      expect(await listIds('filter[clean_description__gte]=P&sort=date')).toEqual([stipendi.id, pos.id]);
      expect(await listIds('filter[clean_description__lt]=C&sort=date')).toEqual([bonifico.id]);
      expect(await listIds('filter[counterpart_name]=Dipendenti')).toEqual([stipendi.id]);
      expect(await listIds('filter[counterpart_name__in]=Dipendenti,Enel Energia S.p.A.&sort=date')).toEqual([stipendi.id, enel.id]);
      expect(await listIds('filter[counterpart_name__notIn]=Dipendenti,Enel Energia S.p.A.&sort=date,created_at')).toEqual([
        anonymous.id,
        bonifico.id,
        pos.id,
        interessi.id,
      ]);
      expect(await listIds('filter[counterpart_name__empty]=true&sort=date')).toEqual([anonymous.id, pos.id, interessi.id]);
      expect(await listIds('filter[counterpart_name__empty]=false&sort=date')).toEqual([stipendi.id, enel.id, bonifico.id]);
      expect(await listIds('filter[counterpart_name__ilike]=s.p.a&filter[type]=DEBIT')).toEqual([enel.id]);
      expect(await listIds('filter[counterpart_name__gt]=Bianchi Impianti S.r.l.&sort=date')).toEqual([stipendi.id, enel.id]);
      expectError(await list('filter[value_date]=2026-03-30'), 400, 'invalid_query_parameter', '/query/filter[value_date]');
    });

    it("filters by the bank's description: contains, ignoring case", async () => {
      expect(await listIds('filter[description__ilike]=enel energia')).toEqual([enel.id]);
      expect(await listIds('filter[description__ilike]=pos&sort=date')).toEqual([pos.id]);
      expect(await listIds('filter[description__ilike]=fv-2026/0001&sort=created_at')).toEqual([bonifico.id, stipendi.id, interessi.id]);
      expect(await listIds('filter[description__ilike]=SEPA_DA')).toEqual([]);
      expect(await listIds('filter[description]=PAGAMENTO POS')).toEqual([pos.id]);
      expect(await listIds('filter[description__empty]=true')).toEqual([anonymous.id]);
      expect(await listIds(`filter[description__ilike]=bianchi&filter[account_id]=${unicredit.id}`)).toEqual([stipendi.id]);
    });

    it('filters by amount numerically, whatever the direction', async () => {
      expect(await listIds('filter[amount]=1220&sort=created_at')).toEqual([bonifico.id, pos.id]);
      expect(await listIds('filter[amount]=180.350')).toEqual([enel.id]);
      expect(await listIds('filter[amount__gt]=1220&sort=date')).toEqual([stipendi.id]);
      expect(await listIds('filter[amount__gte]=1220&sort=created_at')).toEqual([bonifico.id, pos.id, stipendi.id]);
      expect(await listIds('filter[amount__lt]=99.5')).toEqual([interessi.id]);
      expect(await listIds('filter[amount__lte]=99.50&sort=date')).toEqual([anonymous.id, interessi.id]);
      expect(await listIds('filter[amount__gte]=100&filter[amount__lte]=1000&filter[type]=DEBIT')).toEqual([enel.id]);
      expectError(await list('filter[amount]=-12'), 400, 'invalid_query_parameter', '/query/filter[amount]');
      expectError(await list('filter[amount__gt]=12,5'), 400, 'invalid_query_parameter', '/query/filter[amount__gt]');
      expectError(await list('filter[amount__ilike]=12'), 400, 'invalid_query_parameter', '/query/filter[amount__ilike]');
    });

    it('sorts by amount (numerically), created_at and date, ascending and descending, several at once', async () => {
      const twelveTwenty = [bonifico.id, pos.id].sort(byUuid);
      expect(await listIds('sort=amount')).toEqual([interessi.id, anonymous.id, enel.id, ...twelveTwenty, stipendi.id]);
      expect(await listIds('sort=-amount')).toEqual([stipendi.id, ...[...twelveTwenty].reverse(), enel.id, anonymous.id, interessi.id]);
      expect(await listIds('sort=amount,-created_at')).toEqual([interessi.id, anonymous.id, enel.id, pos.id, bonifico.id, stipendi.id]);
      const sameInstant = [interessi.id, anonymous.id].sort(byUuid);
      expect(await listIds('sort=created_at')).toEqual([bonifico.id, enel.id, pos.id, stipendi.id, ...sameInstant]);
      expect(await listIds('sort=-created_at')).toEqual([...[...sameInstant].reverse(), stipendi.id, pos.id, enel.id, bonifico.id]);
      expect(await listIds('sort=date,amount')).toEqual([anonymous.id, stipendi.id, enel.id, ...twelveTwenty, interessi.id]);
      expect(await listIds('sort=-date,-amount')).toEqual([interessi.id, ...[...twelveTwenty].reverse(), enel.id, stipendi.id, anonymous.id]);
      expect(await listIds('sort=-date,created_at')).toEqual([interessi.id, bonifico.id, pos.id, enel.id, stipendi.id, anonymous.id]);
      expectError(await list('sort=booking_date_time'), 400, 'invalid_query_parameter', '/query/sort');
      expectError(await list('sort=amount-'), 400, 'invalid_query_parameter', '/query/sort');
      expectError(await list('sort=--amount'), 400, 'invalid_query_parameter', '/query/sort');
      expectError(await list('sort='), 400, 'invalid_query_parameter', '/query/sort');
    });

    it('pages one at a time through every sort without duplicates or gaps', async () => {
      for (const sort of ['amount', '-amount', 'created_at', '-created_at', 'date', '-date', '-date,amount', 'amount,-date']) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const response: Response = await list(`sort=${sort}&page_size=1${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
          seen.push(...ids(response));
          cursor = response.body.page.cursor;
        } while (cursor && seen.length < 20);
        expect([sort, seen]).toEqual([sort, await listIds(`sort=${sort}`)]);
      }
    });
  });

  describe('get', () => {
    it('reads one transaction with every expansion', async () => {
      expect((await api.http.get(`${base}/${bonifico.id}`).set(rossi.auth).expect(200)).body).toEqual(bonificoBody());
      const expanded = await api.http.get(`${base}/${bonifico.id}?expand=reconciliations.flow,category,subcategory`).set(rossi.auth).expect(200);
      expect(expanded.body).toEqual({ ...bonificoBody(), reconciliations: [reconciliationBody(recA, flowA), reconciliationBody(recB, flowB)] });
      const enelExpanded = await api.http.get(`${base}/${enel.id}?expand=category,subcategory,reconciliations`).set(rossi.auth).expect(200);
      expect(enelExpanded.body).toMatchObject({
        category: { id: utenze.id, name: 'Utenze' },
        subcategory: { id: energia.id, name: 'Energia' },
        reconciliations: [],
        value_date: '2026-03-14',
      });
    });

    it("answers 400 for a bad expansion, 404 unknown, 403 another company's", async () => {
      expectError(await api.http.get(`${base}/${bonifico.id}?expand=account`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/expand');
      expectError(await api.http.get(`${base}/${bonifico.id}?sort=date`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/sort');
      expectError(
        await api.http.get(`${base}/4c3b2a10-0000-4000-8000-000000000000`).set(rossi.auth),
        404,
        'not_found',
        undefined,
        'Transaction was not found.',
      );
      expectError(await api.http.get(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
      expectError(await api.http.get(`${base}/${foreign.id}?expand=reconciliations.flow`).set(rossi.auth), 403, 'forbidden');
    });
  });
});
