import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { byUuid, expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Category } from '../categories/category.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import type { Counterpart } from '../counterparts/counterpart.entity.js';
import type { Flow } from '../flows/flow.entity.js';
import type { Document } from './document.entity.js';

describe('documents', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let base: string;
  let utenze: Category;
  let energia: Category;
  let consulenze: Category;
  let legali: Category;
  let foreignCategory: Category;
  let bianchi: Counterpart;
  let esposito: Counterpart;
  let invoice: Document;
  let bill: Document;
  let creditNote: Document;
  let draft: Document;
  let selfInvoice: Document;
  let foreign: Document;
  let flowEarly: Flow;
  let flowLate: Flow;

  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    utenze = await fixtures.category({ name: 'Utenze' });
    energia = await fixtures.category({ name: 'Energia', parentId: utenze.id });
    consulenze = await fixtures.category({ name: 'Consulenze' });
    legali = await fixtures.category({ name: 'Legali', parentId: consulenze.id });
    bianchi = await fixtures.counterpart();
    esposito = await fixtures.counterpart({ companyName: 'Esposito Ristorazione S.n.c.', vatNumber: 'IT07654321098' });
    invoice = await fixtures.document({
      number: 'FV-2026/0001',
      categoryId: utenze.id,
      subcategoryId: energia.id,
      counterpartId: bianchi.id,
      creationDate: '2026-03-01',
      deliveryDate: at('2026-03-02T09:00:00Z'),
      deliveryStatus: 'RC',
      fileName: 'IT01234567890_00001.xml',
      notes: 'Fornitura quadri elettrici',
      sourceId: 'ERP-1001',
      createdAt: at('2026-03-01T10:00:00Z'),
      updatedAt: at('2026-03-02T09:00:00Z'),
    });
    bill = await fixtures.document({
      number: 'A-17',
      type: 'BILL',
      status: 'CREATED',
      format: 'FPR12',
      isEInvoice: false,
      direction: 'RECEIVED',
      grossAmount: '99.90',
      vatAmount: '0',
      counterpartId: esposito.id,
      creationDate: '2026-02-10',
      deliveryDate: null,
      notes: '50% acconto_pranzo',
      createdAt: at('2026-02-10T10:00:00Z'),
    });
    creditNote = await fixtures.document({
      number: 'NC-2026/0001',
      type: 'CREDIT_NOTE',
      status: 'SENT',
      creationDate: '2026-03-15',
      deliveryDate: at('2026-03-16T09:00:00Z'),
      counterpartId: bianchi.id,
      createdAt: at('2026-03-15T10:00:00Z'),
    });
    draft = await fixtures.document({
      number: 'FV-2026/0002',
      status: 'DRAFT',
      isEInvoice: null,
      creationDate: '2026-04-01',
      deliveryDate: null,
      categoryId: consulenze.id,
      createdAt: at('2026-04-01T10:00:00Z'),
    });
    selfInvoice = await fixtures.document({
      number: 'AF-3',
      type: 'SELF_INVOICE',
      status: 'DELIVERED',
      format: 'FPA12',
      direction: 'RECEIVED',
      creationDate: '2026-03-01',
      deliveryDate: at('2026-03-05T09:00:00Z'),
      sourceId: 'ERP-1002',
      createdAt: at('2026-03-05T10:00:00Z'),
    });
    flowLate = await fixtures.flow(invoice, { amount: '620.00', expectedPaymentDate: '2026-04-30', createdAt: at('2026-03-01T10:00:00Z') });
    flowEarly = await fixtures.flow(invoice, {
      amount: '600.00',
      expectedPaymentDate: '2026-03-31',
      paymentStatus: 'PAID',
      paymentDate: '2026-03-30',
      paymentMethod: 'RIBA',
      createdAt: at('2026-03-01T10:00:01Z'),
    });
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreignCategory = await verdiFixtures.category({ name: 'Utenze' });
    foreign = await verdiFixtures.document({ number: 'FV-2026/0001', createdAt: at('2026-03-20T10:00:00Z') });
    base = `/api/v1/companies/${rossi.companyId}/documents`;
  });

  afterAll(() => api.close());

  const list = (query = '') => api.http.get(`${base}${query ? `?${query}` : ''}`).set(rossi.auth);
  const listIds = async (query: string) => ids(await list(query).expect(200));

  const invoiceBody = () => ({
    id: invoice.id,
    number: 'FV-2026/0001',
    type: 'INVOICE',
    status: 'DELIVERED',
    format: 'FPR12',
    is_e_invoice: true,
    gross_amount: { amount: '1220.00', currency: 'EUR' },
    vat_amount: { amount: '220.00', currency: 'EUR' },
    flows: null,
    category_id: utenze.id,
    category: null,
    subcategory_id: energia.id,
    subcategory: null,
    counterpart_id: bianchi.id,
    counterpart: null,
    sectional_id: null,
    sectional: null,
    progressive: null,
    created_at: '2026-03-01T10:00:00.000Z',
    creation_date: '2026-03-01',
    delivery_date: '2026-03-02T09:00:00.000Z',
    delivery_status: 'RC',
    direction: 'ISSUED',
    file_name: 'IT01234567890_00001.xml',
    notes: 'Fornitura quadri elettrici',
    source_id: 'ERP-1001',
    updated_at: '2026-03-02T09:00:00.000Z',
    version: 1,
  });

  const flowBody = (flow: Flow, paid: boolean) => ({
    id: flow.id,
    document_id: invoice.id,
    amount: { amount: paid ? '600.00' : '620.00', currency: 'EUR' },
    paid_amount: { amount: '0', currency: 'EUR' },
    payment_status: paid ? 'PAID' : 'TO_PAY',
    payment_method: paid ? 'RIBA' : 'TRANSFER',
    expected_payment_date: paid ? '2026-03-31' : '2026-04-30',
    payment_date: paid ? '2026-03-30' : null,
    created_at: flow.createdAt.toISOString(),
  });

  describe('list', () => {
    it("lists the company's documents newest first, ids always present and members null unless expanded", async () => {
      const response = await list().expect(200);
      expect(ids(response)).toEqual([draft.id, creditNote.id, selfInvoice.id, invoice.id, bill.id]);
      expect(response.body.page).toEqual({ cursor: null, size: 25 });
      expect(response.body.data[3]).toEqual(invoiceBody());
      expect(response.body.data[4]).toMatchObject({
        id: bill.id,
        type: 'BILL',
        status: 'CREATED',
        format: 'FPR12',
        is_e_invoice: false,
        direction: 'RECEIVED',
        gross_amount: { amount: '99.90', currency: 'EUR' },
        vat_amount: { amount: '0', currency: 'EUR' },
        delivery_date: null,
        delivery_status: null,
        category_id: null,
        subcategory_id: null,
        counterpart_id: esposito.id,
      });
    });

    it('expands category, subcategory and flows (flows by expected payment date)', async () => {
      const response = await list('expand=category,subcategory,flows&filter[number__ilike]=FV-').expect(200);
      expect(ids(response)).toEqual([draft.id, invoice.id]);
      expect(response.body.data[1]).toEqual({
        ...invoiceBody(),
        category: { id: utenze.id, name: 'Utenze' },
        subcategory: { id: energia.id, name: 'Energia' },
        flows: [flowBody(flowEarly, true), flowBody(flowLate, false)],
      });
      expect(response.body.data[0]).toMatchObject({ category: { id: consulenze.id, name: 'Consulenze' }, subcategory: null, flows: [] });
      // Only the list's declared expansions: the counterpart is expanded on single reads.
      expectError(await list('expand=counterpart'), 400, 'invalid_query_parameter', '/query/expand');
      expectError(await list('expand=flows.transactions'), 400, 'invalid_query_parameter', '/query/expand');
    });

    it('filters by creation_date (date operators)', async () => {
      expect(await listIds('filter[creation_date]=2026-03-01')).toEqual([selfInvoice.id, invoice.id]);
      expect(await listIds('filter[creation_date__neq]=2026-03-01')).toEqual([draft.id, creditNote.id, bill.id]);
      expect(await listIds('filter[creation_date__gt]=2026-03-01')).toEqual([draft.id, creditNote.id]);
      expect(await listIds('filter[creation_date__gte]=2026-03-01&filter[creation_date__lt]=2026-04-01')).toEqual([creditNote.id, selfInvoice.id, invoice.id]);
      expect(await listIds('filter[creation_date__lte]=2026-03-01')).toEqual([selfInvoice.id, invoice.id, bill.id]);
      expect(await listIds('filter[creation_date__in]=2026-02-10,2026-04-01')).toEqual([draft.id, bill.id]);
      expect(await listIds('filter[creation_date__notIn]=2026-02-10,2026-04-01')).toEqual([creditNote.id, selfInvoice.id, invoice.id]);
      expect(await listIds('filter[creation_date__empty]=false')).toHaveLength(5);
      expectError(await list('filter[creation_date]=2026-02-30'), 400, 'invalid_query_parameter', '/query/filter[creation_date]');
      expectError(await list('filter[creation_date]=01/03/2026'), 400, 'invalid_query_parameter', '/query/filter[creation_date]');
      expectError(await list('filter[creation_date__ilike]=2026'), 400, 'invalid_query_parameter', '/query/filter[creation_date__ilike]');
    });

    it('filters by delivery_date (date-time operators, nullable)', async () => {
      expect(await listIds('filter[delivery_date]=2026-03-02T09:00:00Z')).toEqual([invoice.id]);
      expect(await listIds('filter[delivery_date]=2026-03-02T10:00:00%2B01:00')).toEqual([invoice.id]);
      expect(await listIds('filter[delivery_date__gt]=2026-03-02T09:00:00Z')).toEqual([creditNote.id, selfInvoice.id]);
      expect(await listIds('filter[delivery_date__gte]=2026-03-02T09:00:00Z')).toEqual([creditNote.id, selfInvoice.id, invoice.id]);
      expect(await listIds('filter[delivery_date__lt]=2026-03-05')).toEqual([invoice.id]);
      expect(await listIds('filter[delivery_date__lte]=2026-03-05T09:00:00.000Z')).toEqual([selfInvoice.id, invoice.id]);
      expect(await listIds('filter[delivery_date__neq]=2026-03-02T09:00:00Z')).toEqual([draft.id, creditNote.id, selfInvoice.id, bill.id]);
      expect(await listIds('filter[delivery_date__in]=2026-03-02T09:00:00Z,2026-03-16T09:00:00Z')).toEqual([creditNote.id, invoice.id]);
      expect(await listIds('filter[delivery_date__notIn]=2026-03-02T09:00:00Z')).toEqual([draft.id, creditNote.id, selfInvoice.id, bill.id]);
      expect(await listIds('filter[delivery_date__empty]=true')).toEqual([draft.id, bill.id]);
      expect(await listIds('filter[delivery_date__empty]=false')).toEqual([creditNote.id, selfInvoice.id, invoice.id]);
      expectError(await list('filter[delivery_date]=yesterday'), 400, 'invalid_query_parameter', '/query/filter[delivery_date]');
      expectError(await list('filter[delivery_date]=2026-13-01T00:00:00Z'), 400, 'invalid_query_parameter', '/query/filter[delivery_date]');
    });

    it('filters by direction, status and type (uppercase enums)', async () => {
      expect(await listIds('filter[direction]=RECEIVED')).toEqual([selfInvoice.id, bill.id]);
      expect(await listIds('filter[direction__neq]=RECEIVED')).toEqual([draft.id, creditNote.id, invoice.id]);
      expect(await listIds('filter[status]=DELIVERED')).toEqual([selfInvoice.id, invoice.id]);
      expect(await listIds('filter[status__in]=DRAFT,SENT')).toEqual([draft.id, creditNote.id]);
      expect(await listIds('filter[status__notIn]=DRAFT,SENT,DELIVERED')).toEqual([bill.id]);
      expect(await listIds('filter[status__empty]=true')).toEqual([]);
      expect(await listIds('filter[type]=SELF_INVOICE')).toEqual([selfInvoice.id]);
      expect(await listIds('filter[type__in]=BILL,CREDIT_NOTE')).toEqual([creditNote.id, bill.id]);
      expect(await listIds('filter[type]=INVOICE&filter[status]=DRAFT')).toEqual([draft.id]);
      expectError(await list('filter[status]=delivered'), 400, 'invalid_query_parameter', '/query/filter[status]');
      expectError(await list('filter[type__in]=BILL,RECEIPT'), 400, 'invalid_query_parameter', '/query/filter[type__in]');
      expectError(await list('filter[direction__gt]=ISSUED'), 400, 'invalid_query_parameter', '/query/filter[direction__gt]');
      expectError(await list('filter[status__ilike]=DEL'), 400, 'invalid_query_parameter', '/query/filter[status__ilike]');
    });

    it('filters by number, notes, source_id and counterpart_company_name', async () => {
      expect(await listIds('filter[number]=A-17')).toEqual([bill.id]);
      expect(await listIds('filter[number__ilike]=fv-2026%25')).toEqual([draft.id, invoice.id]);
      expect(await listIds('filter[number__gte]=FV&filter[number__lt]=NC')).toEqual([draft.id, invoice.id]);
      expect(await listIds('filter[notes__ilike]=quadri')).toEqual([invoice.id]);
      // % in a value is a wildcard; _ is literal.
      expect(await listIds('filter[notes__ilike]=50%25acconto%25')).toEqual([bill.id]);
      // With a % of its own the pattern is anchored: no implicit "contains".
      expect(await listIds('filter[notes__ilike]=50%25acconto')).toEqual([]);
      expect(await listIds('filter[notes__ilike]=acconto_pranzo')).toEqual([bill.id]);
      expect(await listIds('filter[notes__ilike]=acconto_p_anzo')).toEqual([]);
      expect(await listIds('filter[notes__empty]=true')).toEqual([draft.id, creditNote.id, selfInvoice.id]);
      expect(await listIds('filter[source_id]=ERP-1002')).toEqual([selfInvoice.id]);
      expect(await listIds('filter[source_id__in]=ERP-1001,ERP-1002')).toEqual([selfInvoice.id, invoice.id]);
      expect(await listIds('filter[source_id__empty]=false')).toEqual([selfInvoice.id, invoice.id]);
      expect(await listIds('filter[counterpart_company_name]=Bianchi Impianti S.r.l.')).toEqual([creditNote.id, invoice.id]);
      expect(await listIds('filter[counterpart_company_name__ilike]=esposito')).toEqual([bill.id]);
      expect(await listIds('filter[counterpart_company_name__empty]=true')).toEqual([draft.id, selfInvoice.id]);
      expect(await listIds('filter[counterpart_company_name__neq]=Bianchi Impianti S.r.l.')).toEqual([draft.id, selfInvoice.id, bill.id]);
    });

    it('sorts by created_at, creation_date, delivery_date and number, several at once, ties by id', async () => {
      expect(await listIds('sort=created_at')).toEqual([bill.id, invoice.id, selfInvoice.id, creditNote.id, draft.id]);
      const sameDay = [invoice.id, selfInvoice.id].sort(byUuid);
      expect(await listIds('sort=creation_date')).toEqual([bill.id, ...sameDay, creditNote.id, draft.id]);
      expect(await listIds('sort=-creation_date')).toEqual([draft.id, creditNote.id, ...[...sameDay].reverse(), bill.id]);
      expect(await listIds('sort=creation_date,-created_at')).toEqual([bill.id, selfInvoice.id, invoice.id, creditNote.id, draft.id]);
      expect(await listIds('sort=-creation_date,number')).toEqual([draft.id, creditNote.id, selfInvoice.id, invoice.id, bill.id]);
      const undelivered = [draft.id, bill.id].sort(byUuid);
      expect(await listIds('sort=delivery_date')).toEqual([invoice.id, selfInvoice.id, creditNote.id, ...undelivered]);
      expect(await listIds('sort=-delivery_date')).toEqual([...[...undelivered].reverse(), creditNote.id, selfInvoice.id, invoice.id]);
      expect(await listIds('sort=number')).toEqual([bill.id, selfInvoice.id, invoice.id, draft.id, creditNote.id]);
      expect(await listIds('sort=-number')).toEqual([creditNote.id, draft.id, invoice.id, selfInvoice.id, bill.id]);
      expectError(await list('sort=updated_at'), 400, 'invalid_query_parameter', '/query/sort');
      expectError(await list('sort=number,-number'), 400, 'invalid_query_parameter', '/query/sort');
    });

    it("never lists another company's documents", async () => {
      expect(await listIds('filter[number]=FV-2026/0001')).toEqual([invoice.id]);
      const theirs = await api.http.get(`/api/v1/companies/${verdi.companyId}/documents`).set(verdi.auth).expect(200);
      expect(ids(theirs)).toEqual([foreign.id]);
    });
  });

  describe('get', () => {
    it('reads a document, members null unless expanded', async () => {
      expect((await api.http.get(`${base}/${invoice.id}`).set(rossi.auth).expect(200)).body).toEqual(invoiceBody());
    });

    it('expands category, counterpart, flows and subcategory', async () => {
      const response = await api.http.get(`${base}/${invoice.id}?expand=counterpart,flows,category,subcategory`).set(rossi.auth).expect(200);
      expect(response.body).toEqual({
        ...invoiceBody(),
        category: { id: utenze.id, name: 'Utenze' },
        subcategory: { id: energia.id, name: 'Energia' },
        flows: [flowBody(flowEarly, true), flowBody(flowLate, false)],
        counterpart: {
          id: bianchi.id,
          company_name: 'Bianchi Impianti S.r.l.',
          address: 'Via Roma 12',
          city: 'Milano',
          postal_code: '20121',
          province_code: 'MI',
          country: 'IT',
          tax_number: '01234567890',
          vat_number: 'IT01234567890',
          destination_code: 'M5UXCR1',
          pec_address: null,
        },
      });
      const only = await api.http.get(`${base}/${invoice.id}?expand=counterpart`).set(rossi.auth).expect(200);
      expect(only.body).toMatchObject({ counterpart: { id: bianchi.id }, category: null, subcategory: null, flows: null });
    });

    it("answers 400 for an unknown expansion or parameter, 404 unknown, 403 another company's", async () => {
      expectError(await api.http.get(`${base}/${invoice.id}?expand=transactions`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/expand');
      expectError(await api.http.get(`${base}/${invoice.id}?filter[number]=x`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/filter[number]');
      expectError(await api.http.get(`${base}/9a0b7f34-0000-4000-8000-000000000000`).set(rossi.auth), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await api.http.get(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
      expectError(await api.http.get(`${base}/${foreign.id}?expand=flows`).set(rossi.auth), 403, 'forbidden');
    });
  });

  describe('PATCH category_id', () => {
    const events = (documentId: string) =>
      api.db
        .getRepository(DomainEvent)
        .createQueryBuilder('e')
        .where(`e.payload->>'id' = :documentId`, { documentId })
        .orderBy('e.createdAt', 'ASC')
        .addOrderBy('e.id', 'ASC')
        .getMany();
    const patch = (id: string, body: unknown) =>
      api.http
        .patch(`${base}/${id}`)
        .set(rossi.auth)
        .send(body as object);

    it('sets another category, clearing a subcategory of the old one, and records one document.updated event', async () => {
      const before = await events(invoice.id);
      const response = await patch(invoice.id, { category_id: consulenze.id }).expect(200);
      expect(response.body).toEqual({
        ...invoiceBody(),
        category_id: consulenze.id,
        category: { id: consulenze.id, name: 'Consulenze' },
        subcategory_id: null,
        subcategory: null,
        flows: [flowBody(flowEarly, true), flowBody(flowLate, false)],
        counterpart: expect.objectContaining({ id: bianchi.id, company_name: 'Bianchi Impianti S.r.l.' }),
        updated_at: expect.any(String),
        version: 2,
      });
      expect(Date.parse(response.body.updated_at)).toBeGreaterThan(Date.parse('2026-03-02T09:00:00Z'));
      const after = await events(invoice.id);
      expect(after).toHaveLength(before.length + 1);
      const event = after.at(-1)!;
      expect(event).toMatchObject({ companyId: rossi.companyId, type: 'document.updated' });
      expect(event.payload).toEqual(response.body);
      // The change is stored.
      expect((await api.http.get(`${base}/${invoice.id}`).set(rossi.auth).expect(200)).body).toMatchObject({
        category_id: consulenze.id,
        subcategory_id: null,
      });
    });

    it('keeps the subcategory when it belongs to the new (or same) category', async () => {
      await api.db.query('UPDATE documents SET category_id = NULL, subcategory_id = $1 WHERE id = $2', [legali.id, bill.id]);
      const response = await patch(bill.id, { category_id: consulenze.id }).expect(200);
      expect(response.body).toMatchObject({ category_id: consulenze.id, subcategory_id: legali.id, subcategory: { id: legali.id, name: 'Legali' } });
      const again = await patch(bill.id, { category_id: consulenze.id }).expect(200);
      expect(again.body).toMatchObject({ category_id: consulenze.id, subcategory_id: legali.id });
      // The same category written in upper case is the same category.
      const upper = await patch(bill.id, { category_id: consulenze.id.toUpperCase() }).expect(200);
      expect(upper.body).toMatchObject({ category_id: consulenze.id, subcategory_id: legali.id });
      // The same category again changes nothing: one event, for the first change.
      expect(again.body).toMatchObject({ version: response.body.version, updated_at: response.body.updated_at });
      expect(upper.body).toMatchObject({ version: response.body.version, updated_at: response.body.updated_at });
      expect(await events(bill.id)).toHaveLength(1);
    });

    it('clears category and subcategory with null', async () => {
      await api.db.query('UPDATE documents SET category_id = $1, subcategory_id = $2 WHERE id = $3', [utenze.id, energia.id, selfInvoice.id]);
      const response = await patch(selfInvoice.id, { category_id: null }).expect(200);
      expect(response.body).toMatchObject({
        id: selfInvoice.id,
        category_id: null,
        category: null,
        subcategory_id: null,
        subcategory: null,
        flows: [],
        counterpart: null,
      });
      expect(await events(selfInvoice.id)).toHaveLength(1);
    });

    it('refuses unknown, sub- and foreign categories with a pointer, recording no event', async () => {
      expectError(await patch(draft.id, { category_id: '0d6f2a51-0000-4000-8000-000000000000' }), 404, 'not_found', '/category_id', 'Category was not found.');
      expectError(await patch(draft.id, { category_id: energia.id }), 422, 'unprocessable_entity', '/category_id');
      expectError(await patch(draft.id, { category_id: foreignCategory.id }), 403, 'forbidden', '/category_id');
      expect(await events(draft.id)).toHaveLength(0);
      expect((await api.http.get(`${base}/${draft.id}`).set(rossi.auth).expect(200)).body.category_id).toBe(consulenze.id);
    });

    it('answers 400 for a malformed body with a pointer to the member', async () => {
      expectError(await patch(draft.id, { category_id: 'utenze' }), 400, 'bad_request', '/category_id');
      expectError(await patch(draft.id, { category_id: 42 }), 400, 'bad_request', '/category_id');
      expectError(await patch(draft.id, {}), 400, 'bad_request', '');
      expectError(await patch(draft.id, { category_id: utenze.id, number: 'X-1' }), 400, 'bad_request', '/number');
      expectError(await patch(draft.id, [utenze.id]), 400, 'bad_request', '');
      expect(await events(draft.id)).toHaveLength(0);
    });

    it('records nothing for a change to the values it already has: no event, same updated_at and version', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0300', categoryId: consulenze.id, subcategoryId: legali.id });
      const stored = (await api.http.get(`${base}/${document.id}`).set(rossi.auth).expect(200)).body;
      for (const categoryId of [consulenze.id, consulenze.id.toUpperCase()]) {
        const response = await patch(document.id, { category_id: categoryId }).expect(200);
        expect(response.body).toMatchObject({ category_id: consulenze.id, subcategory_id: legali.id, updated_at: stored.updated_at, version: stored.version });
      }
      expect(await events(document.id)).toHaveLength(0);
      const changed = await patch(document.id, { category_id: null }).expect(200);
      expect(changed.body.version).toBe(stored.version + 1);
      expect(await events(document.id)).toHaveLength(1);
    });

    it('applies parallel changes one after the other: the newest event holds what is stored, versions count up, updated_at never goes back', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0301' });
      const choices = await Promise.all(['Affitti', 'Personale', 'Marketing', 'Trasporti', 'Assicurazioni'].map((name) => fixtures.category({ name })));
      for (let round = 0; round < 5; round++) {
        const before = await events(document.id);
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) => patch(document.id, { category_id: choices[(i * 3 + round) % choices.length].id })),
        );
        for (const response of responses) expect(response.status).toBe(200);
        const stored = (await api.http.get(`${base}/${document.id}`).set(rossi.auth).expect(200)).body;
        const recorded = (await events(document.id)).slice(before.length);
        const newest = recorded.at(-1)!;
        // What an integrator applying "latest wins" ends up with is what the database holds.
        expect(newest.payload.category_id).toBe(stored.category_id);
        expect(newest.payload.updated_at).toBe(stored.updated_at);
        expect(newest.payload.version).toBe(stored.version);
        // In the order they were recorded, events carry consecutive versions and strictly later times.
        const first = before.length === 0 ? 2 : (before.at(-1)!.payload.version as number) + 1;
        expect(recorded.map((e) => e.payload.version)).toEqual(recorded.map((_, i) => first + i));
        for (const [i, event] of recorded.entries()) {
          expect(event.createdAt.toISOString()).toBe(event.payload.updated_at);
          if (i > 0) expect(Date.parse(event.payload.updated_at as string)).toBeGreaterThan(Date.parse(recorded[i - 1].payload.updated_at as string));
        }
        if (before.length)
          expect(Date.parse(recorded[0].payload.updated_at as string)).toBeGreaterThan(Date.parse(before.at(-1)!.payload.updated_at as string));
        // Every answer is a state that was announced (a change to the current value answers the current state).
        for (const response of responses) {
          const announced = [...before, ...recorded].find((e) => e.payload.version === response.body.version);
          expect(announced?.payload).toMatchObject({ category_id: response.body.category_id, updated_at: response.body.updated_at });
        }
      }
    });

    it("answers 404 for an unknown document and 403 for another company's", async () => {
      expectError(await patch('5d9c1e0a-0000-4000-8000-000000000000', { category_id: null }), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await patch(foreign.id, { category_id: null }), 403, 'forbidden');
      expectError(await patch(foreign.id, { category_id: foreignCategory.id }), 403, 'forbidden');
      const theirs = await api.http.get(`/api/v1/companies/${verdi.companyId}/documents/${foreign.id}`).set(verdi.auth).expect(200);
      expect(theirs.body.category_id).toBeNull();
      expect(await api.db.getRepository(DomainEvent).countBy({ companyId: verdi.companyId })).toBe(0);
    });
  });
});
