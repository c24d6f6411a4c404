import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../../test/api.js';
import { samples } from '../../test/fatturapa-oracle.js';
import { invoiceToXml } from '../invoices/fatturapa/index.js';
import { EXAMPLE_SELLER_VAT, exampleInvoice } from '../invoices/invoice-example.js';
import { DEMO_COMPANY } from './catalogue.js';
import { GUIDE_COUNTERPART_NAME, GUIDE_VAT_NUMBER } from './guide.js';
import { seedDemo } from './seed-demo.js';

interface Money {
  amount: string;
  currency: string;
}
interface Flow {
  id: string;
  document_id: string;
  amount: Money;
  paid_amount: Money;
  payment_status: string;
  payment_date: string | null;
}
interface Transaction {
  id: string;
  date: string;
  amount: Money;
  reconciliations: unknown[];
}

/**
 * The portal's step-by-step quickstart (portal/app/content/quickstarts/quickstarts-step-by-step.md), call by call with
 * its own parameters, against a fresh demo loaded as `npm start` loads it (today's date): every step must find what
 * the guide says it finds.
 */
describe('the quickstart, followed on a fresh demo', () => {
  let api: TestApi;
  let key: string;
  const get = (path: string, query: Record<string, string | number> = {}) =>
    api.http.get(`/api/v1${path}`).query(query).set('Authorization', `Bearer ${key}`).expect('Content-Type', /json/);

  beforeAll(async () => {
    api = await startApi();
    key = (await seedDemo(api.db, { settings: api.config })).apiKey;
    // The whole demo, as npm start loads it: over a minute when the machine is busy.
  }, 240_000);
  afterAll(() => api.close());

  it('goes from the company list to a PAID flow and back to TO_PAY', async () => {
    // Step 1: find your company.
    const companies = (await get('/companies').expect(200)).body.data as Array<{ id: string; name: string }>;
    const company = companies.find((c) => c.name === DEMO_COMPANY.name)!;
    expect(company).toBeDefined();
    const base = `/companies/${company.id}`;

    // Step 2: look at the bank accounts.
    expect((await get(`${base}/accounts`).expect(200)).body.data.length).toBeGreaterThan(0);

    // Step 3: find an unpaid invoice among the five most recent ones to Ferramenta Bianchi that the SDI took; the first
    // is the guide's, as the guide says, named by its counterpart_id.
    const documents = (
      await get(`${base}/documents`, {
        'filter[direction]': 'ISSUED',
        'filter[type]': 'INVOICE',
        'filter[status__in]': 'SENT,DELIVERED',
        'filter[counterpart_company_name__ilike]': 'bianchi',
        sort: '-creation_date',
        expand: 'flows',
        page_size: 5,
      }).expect(200)
    ).body.data as Array<{ id: string; creation_date: string; counterpart_id: string; gross_amount: Money; flows: Flow[] }>;
    expect(documents[0]).toMatchObject({ gross_amount: { amount: '1220.00' }, flows: [expect.objectContaining({ payment_status: 'TO_PAY' })] });
    const counterpart = (await get(`${base}/counterparts/${documents[0].counterpart_id}`).expect(200)).body as { company_name: string };
    expect(counterpart.company_name).toBe(GUIDE_COUNTERPART_NAME);
    const unpaid = documents.flatMap((document) => document.flows.filter((flow) => flow.payment_status === 'TO_PAY').map((flow) => ({ document, flow })));
    expect(unpaid.length).toBeGreaterThan(0);

    // Step 4: find the payment: a credit from "bianchi" on or after the invoice date, not reconciled yet.
    const matches = [];
    for (const { document, flow } of unpaid) {
      const transactions = (
        await get(`${base}/transactions`, {
          'filter[type]': 'CREDIT',
          'filter[date__gte]': document.creation_date,
          'filter[counterpart_name__ilike]': 'bianchi',
          expand: 'reconciliations',
        }).expect(200)
      ).body.data as Transaction[];
      for (const transaction of transactions) {
        if (transaction.reconciliations.length === 0 && transaction.amount.amount === flow.amount.amount) matches.push({ document, flow, transaction });
      }
    }
    expect(matches).toHaveLength(1);
    const [{ document, flow, transaction }] = matches;

    // Step 5: create the reconciliation.
    const created = await api.http
      .post(`/api/v1${base}/reconciliations`)
      .set('Authorization', `Bearer ${key}`)
      .send({ flow_id: flow.id, transaction_id: transaction.id })
      .expect(201);
    expect(created.body).toMatchObject({ flow_id: flow.id, transaction_id: transaction.id, amount: flow.amount, flow: { payment_status: 'PAID' } });

    // Step 6: the flow is PAID, on the transfer's date.
    const paid = (await get(`${base}/documents/${document.id}/flows/${flow.id}`).expect(200)).body as Flow;
    expect(paid).toMatchObject({ payment_status: 'PAID', paid_amount: flow.amount, payment_date: transaction.date });

    // Step 7: undo it; the flow is TO_PAY again, and a second delete is a 404.
    const path = `/api/v1${base}/reconciliations/${created.body.id}`;
    await api.http.delete(path).set('Authorization', `Bearer ${key}`).expect(204);
    expect((await get(`${base}/documents/${document.id}/flows/${flow.id}`).expect(200)).body).toMatchObject({ payment_status: 'TO_PAY', payment_date: null });
    await api.http.delete(path).set('Authorization', `Bearer ${key}`).expect(404);
  });

  it("finds the guides' counterpart by name and by VAT number", async () => {
    const [company] = (await get('/companies').expect(200)).body.data as Array<{ id: string }>;
    const byName = (await get(`/companies/${company.id}/counterparts`, { 'filter[company_name__ilike]': 'bianchi' }).expect(200)).body.data;
    expect(byName).toEqual([expect.objectContaining({ company_name: GUIDE_COUNTERPART_NAME, vat_number: GUIDE_VAT_NUMBER })]);
    const byPrefix = (await get(`/companies/${company.id}/counterparts`, { 'filter[company_name__ilike]': 'ferramenta%' }).expect(200)).body.data;
    expect(byPrefix).toEqual([expect.objectContaining({ company_name: GUIDE_COUNTERPART_NAME })]);
    const byVat = (await get(`/companies/${company.id}/counterparts`, { 'filter[vat_number]': GUIDE_VAT_NUMBER }).expect(200)).body.data;
    expect(byVat).toHaveLength(1);
  });

  it("takes the reference's example and the Agenzia delle Entrate's example files as they are", async () => {
    const [company] = (await get('/companies').expect(200)).body.data as Array<{ id: string; vat_number: string }>;
    expect(company.vat_number).toBe(`IT${EXAMPLE_SELLER_VAT}`);
    const post = (type: string, body: string | object) =>
      api.http.post(`/api/v1/companies/${company.id}/documents/invoice`).set('Authorization', `Bearer ${key}`).set('Content-Type', type).send(body);
    // The single-invoice files whose seller is the Agenzia's example VAT number.
    const official = samples('valid').filter(({ bytes }) => {
      const xml = bytes.toString('latin1').replace(/\s+/g, '');
      return (
        xml.split('<FatturaElettronicaBody>').length === 2 &&
        /<CedentePrestatore><DatiAnagrafici><IdFiscaleIVA><IdPaese>IT<\/IdPaese><IdCodice>01234567890</.test(xml)
      );
    });
    expect(official.map(({ name }) => name)).toEqual(expect.arrayContaining(['IT01234567890_FPA01.xml', 'IT01234567890_FPA02.xml', 'IT01234567890_FPR01.xml']));
    // Some of them share a number, year and type (FPA01 and FPA02 are both invoice 123 of 2017): the second is the
    // SDI's duplicate, 00404.
    const created = new Set<string>();
    for (const { name, bytes } of official) {
      const response = await post('application/xml', bytes.toString('latin1'));
      if (response.status === 201) {
        expect(response.body.data[0]).toMatchObject({ direction: 'ISSUED' });
        created.add(response.body.data[0].number);
        continue;
      }
      const [error] = response.body.errors;
      expect({ name, status: response.status, code: error.code }).toEqual({ name, status: 422, code: 'sdi_check_failed' });
      expect(error.detail).toMatch(/^00404: The company already has invoice (\S+) /);
      expect(created.has(/invoice (\S+) /.exec(error.detail)![1])).toBe(true);
    }
    expect(created.size).toBeGreaterThanOrEqual(1);
    await post('application/json', exampleInvoice()).expect(201);
    await post('application/xml', invoiceToXml(exampleInvoice({ number: 'FV-2026-0002' }))).expect(201);
  });
});
