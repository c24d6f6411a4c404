import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { Category } from '../categories/category.entity.js';
import { Counterpart } from '../counterparts/counterpart.entity.js';
import { Document } from '../documents/document.entity.js';
import { Flow } from '../flows/flow.entity.js';
import { DomainEvent } from './events/event.entity.js';
import { Product } from '../products/product.entity.js';
import { Reconciliation } from '../transactions/reconciliation.entity.js';
import { PaymentBatch } from '../payments/payment-batch.entity.js';
import { Transaction } from '../transactions/transaction.entity.js';
import { Sectional } from '../sectionals/sectional.entity.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { EXAMPLE_PDF } from '../f24/f24.dto.js';

/** The resources of one company, each with a value that must never appear in another company's answers. */
interface Owned {
  tenant: Tenant;
  account: string;
  category: string;
  subcategory: string;
  counterpart: string;
  product: string;
  document: string;
  flow: string;
  transaction: string;
  reconciliation: string;
  paymentBatch: string;
  sectional: string;
  f24Request: string;
  event: string;
  secret: string;
}

async function seed(api: TestApi, name: string, secret: string): Promise<Owned> {
  const tenant = await createTenant(api, name);
  const fixtures = new Fixtures(api.db, tenant.companyId);
  const account = await fixtures.account({ nickname: `${secret} account`, iban: 'IT60X0542811101000000123456' });
  const category = await fixtures.category({ name: `${secret} category` });
  const subcategory = await fixtures.category({ name: `${secret} subcategory`, parentId: category.id });
  const counterpart = await fixtures.counterpart({ companyName: `${secret} counterpart` });
  const product = await fixtures.product({ description: `${secret} product` });
  const document = await fixtures.document({ number: `${secret}-1`, notes: secret, counterpartId: counterpart.id });
  const flow = await fixtures.flow(document, { amount: '1000.00' });
  const other = await fixtures.flow(document, { amount: '220.00' });
  const transaction = await fixtures.transaction(account, { cleanDescription: secret, amount: '220.00' });
  const reconciliation = await fixtures.reconciliation(other, transaction);
  const paymentBatch = await api.http
    .post(`/api/v1/companies/${tenant.companyId}/requests/bulk-payment`)
    .set(tenant.auth)
    .send({
      account_id: account.id,
      payments: [{ payee_name: `${secret} payee`, iban: 'DE89370400440532013000', amount: { amount: '10.00', currency: 'EUR' } }],
    })
    .expect(201);
  const sectional = await api.http
    .post(`/api/v1/companies/${tenant.companyId}/sectionals`)
    .set(tenant.auth)
    .send({ year: 2026, prefix: `${secret}/`, minimum_digits: 3 })
    .expect(201);
  const f24Request = await api.http
    .post(`/api/v1/companies/${tenant.companyId}/requests/f24/ocr?label=${secret}`)
    .set(tenant.auth)
    .set('content-type', 'application/pdf')
    .send(Buffer.from(EXAMPLE_PDF))
    .expect(202);
  // A change through the API, so that the company has an event of its own (document.updated, carrying the secret).
  await api.http
    .patch(`/api/v1/companies/${tenant.companyId}/documents/${document.id}`)
    .set(tenant.auth)
    .send({ notes: `${secret} noted` })
    .expect(200);
  const event = await api.db.getRepository(DomainEvent).findOneByOrFail({ companyId: tenant.companyId, type: 'document.updated' });
  return {
    tenant,
    account: account.id,
    category: category.id,
    subcategory: subcategory.id,
    counterpart: counterpart.id,
    product: product.id,
    document: document.id,
    flow: flow.id,
    transaction: transaction.id,
    reconciliation: reconciliation.id,
    paymentBatch: paymentBatch.body.id,
    sectional: sectional.body.id,
    f24Request: f24Request.body.data.request_id,
    event: event.id,
    secret,
  };
}

interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  operationId: string;
}

describe('tenancy: a key acts only inside its granted companies', () => {
  let api: TestApi;
  let rossi: Owned;
  let verdi: Owned;
  let operations: Operation[];

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_POINTS: '100000' });
    rossi = await seed(api, 'Rossi Forniture S.r.l.', 'ROSSISECRET');
    verdi = await seed(api, 'Verdi Costruzioni S.p.A.', 'VERDISECRET');
    const document = (await api.http.get('/api/v1/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { operationId: string }>> };
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'patch', 'delete', 'put'].includes(method))
        .map(([method, operation]) => ({ method: method as Operation['method'], path, operationId: operation.operationId })),
    );
  });

  afterAll(() => api.close());

  /** The path with its parameters filled from `ids` (the resource named by `{id}` depends on the collection). */
  function fill(path: string, company: string, ids: Owned): string {
    return path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'company_id') return company;
      if (name === 'document_id') return ids.document;
      if (name !== 'id') throw new Error(`Unknown path parameter {${name}} in ${path}: teach the tenancy test about it`);
      const segments = path.split('/');
      const collection = segments[segments.indexOf('{id}') - 1];
      const byCollection: Record<string, string> = {
        accounts: ids.account,
        categories: ids.category,
        subcategories: ids.subcategory,
        counterparts: ids.counterpart,
        products: ids.product,
        documents: ids.document,
        flows: ids.flow,
        reconciliations: ids.reconciliation,
        transactions: ids.transaction,
        'payment-batches': ids.paymentBatch,
        sectionals: ids.sectional,
        f24: ids.f24Request,
        events: ids.event,
        // A share is reached through its document, whose company decides first.
        shares: ids.document,
      };
      const id = byCollection[collection ?? ''];
      if (!id) throw new Error(`Unknown collection ${collection} in ${path}: teach the tenancy test about it`);
      return id;
    });
  }

  /** A valid body for the operation, naming the resources in `ids`. */
  function bodyFor(operationId: string, ids: Owned): object | undefined {
    switch (operationId) {
      case 'updateDocument':
        return { category_id: ids.category };
      case 'updateFlow':
        return { payment_method: 'CASH', amount: { amount: '1.00', currency: 'EUR' } };
      case 'createFlow':
        return { amount: { amount: '1.00', currency: 'EUR' } };
      case 'updateTransaction':
        return { category_id: ids.category, subcategory_id: ids.subcategory };
      case 'shareInvoice':
        return { to: 'intruso@example.test', reply_to: 'intruso@example.test' };
      case 'createReconciliation':
        return { flow_id: ids.flow, transaction_id: ids.transaction };
      case 'createCategory':
      case 'updateCategory':
      case 'updateSubcategory':
        return { name: 'Renamed' };
      case 'createSubcategory':
        return { category_id: ids.category, name: 'Renamed' };
      case 'createSectional':
      case 'updateSectional':
        return { year: 2027, minimum_digits: 5 };
      case 'createCounterpart':
      case 'updateCounterpart':
        return { company_name: 'Renamed' };
      case 'createBulkPayment':
        return {
          account_id: ids.account,
          payments: [{ payee_name: 'Intruso', iban: 'DE89370400440532013000', amount: { amount: '1.00', currency: 'EUR' }, flow_ids: [ids.flow] }],
        };
      case 'createProduct':
        return { code: 'NEW', description: 'Renamed', unit_price: { amount: '1.00', currency: 'EUR' }, vat_percentage: '22' };
      case 'updateProduct':
        return { description: 'Renamed' };
      default:
        return undefined;
    }
  }

  async function call(operation: Operation, path: string, tenant: Tenant, body?: object) {
    const pending = api.http[operation.method](`/api/v1${path}`).set(tenant.auth);
    return body === undefined ? pending : pending.send(body);
  }

  /** Everything either company could have changed, to prove a refused call changed nothing. */
  async function snapshot() {
    return {
      categories: await api.db.getRepository(Category).find({ order: { id: 'ASC' } }),
      counterparts: await api.db.getRepository(Counterpart).find({ order: { id: 'ASC' } }),
      products: await api.db.getRepository(Product).find({ order: { id: 'ASC' } }),
      documents: await api.db.getRepository(Document).find({ order: { id: 'ASC' } }),
      flows: await api.db.getRepository(Flow).find({ order: { id: 'ASC' } }),
      reconciliations: await api.db.getRepository(Reconciliation).find({ order: { id: 'ASC' } }),
      paymentBatches: await api.db.getRepository(PaymentBatch).find({ order: { id: 'ASC' } }),
      transactions: await api.db.getRepository(Transaction).find({ order: { id: 'ASC' } }),
      sectionals: await api.db.getRepository(Sectional).find({ order: { id: 'ASC' } }),
      events: await api.db.getRepository(DomainEvent).count(),
    };
  }

  it('finds every company-scoped operation in the OpenAPI document', () => {
    const scoped = operations
      .filter((o) => o.path.startsWith('/companies/{company_id}'))
      .map((o) => o.operationId)
      .sort();
    expect(scoped).toEqual(
      expect.arrayContaining([
        'listAccounts',
        'getAccount',
        'listCategories',
        'getCategory',
        'createCategory',
        'updateCategory',
        'deleteCategory',
        'listSubcategories',
        'getSubcategory',
        'createSubcategory',
        'updateSubcategory',
        'deleteSubcategory',
        'listCounterparts',
        'getCounterpart',
        'createCounterpart',
        'updateCounterpart',
        'listProducts',
        'getProduct',
        'createProduct',
        'updateProduct',
        'deleteProduct',
        'listDocuments',
        'getDocument',
        'updateDocument',
        'listFlows',
        'getFlow',
        'updateFlow',
        'listReconciliations',
        'getReconciliation',
        'createReconciliation',
        'deleteReconciliation',
        'listTransactions',
        'getTransaction',
        'createBulkPayment',
        'listPaymentBatches',
        'getPaymentBatch',
        'getPaymentBatchFile',
        'listSectionals',
        'getSectional',
        'createSectional',
        'updateSectional',
      ]),
    );
  });

  it("another integrator's key on the company: 403 forbidden on every company-scoped operation, nothing leaked or changed", async () => {
    const before = await snapshot();
    const scoped = operations.filter((o) => o.path.startsWith('/companies/{company_id}'));
    for (const operation of scoped) {
      const response = await call(operation, fill(operation.path, rossi.tenant.companyId, rossi), verdi.tenant, bodyFor(operation.operationId, rossi));
      expect([operation.operationId, response.status]).toEqual([operation.operationId, 403]);
      expectError(response, 403, 'forbidden', undefined, 'This API key has no access to this company.');
      expect(response.text).not.toContain(rossi.secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a company that does not exist, or a malformed company id, is a 403 too: no hint of existence', async () => {
    for (const operation of operations.filter((o) => o.path.startsWith('/companies/{company_id}'))) {
      const id = rossi.tenant.companyId;
      const sibling = id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');
      for (const company of ['5f0e0000-0000-4000-8000-000000000000', 'not-a-company', sibling.toUpperCase(), `${id}x`]) {
        const response = await call(operation, fill(operation.path, company, rossi), rossi.tenant, bodyFor(operation.operationId, rossi));
        expectError(response, 403, 'forbidden', undefined, 'This API key has no access to this company.');
      }
    }
  });

  it("the company's id in upper case is the same company", async () => {
    const response = await api.http.get(`/api/v1/companies/${rossi.tenant.companyId.toUpperCase()}/documents`).set(rossi.tenant.auth).expect(200);
    expect(response.body.data.map((d: { id: string }) => d.id)).toEqual([rossi.document]);
  });

  it("ids of another company's resources under one's own company: 403 on every operation with an id, nothing leaked or changed", async () => {
    const before = await snapshot();
    const withIds = operations.filter((o) => o.path.startsWith('/companies/{company_id}/') && /\{(id|document_id)\}/.test(o.path));
    expect(withIds.length).toBeGreaterThanOrEqual(10);
    for (const operation of withIds) {
      // Every id foreign, and (for flows) the own document with a foreign flow.
      const mixes: Owned[] = [verdi];
      // (A share has no fixture of its own: its id stands for a document's, which no share has; shares.spec covers one
      // document's share named under another.)
      if (operation.path.includes('{document_id}') && operation.path.endsWith('{id}') && !operation.path.includes('/shares/'))
        mixes.push({ ...verdi, document: rossi.document });
      if (operation.path.includes('{document_id}')) mixes.push({ ...rossi, document: verdi.document });
      for (const ids of mixes) {
        const response = await call(operation, fill(operation.path, rossi.tenant.companyId, ids), rossi.tenant, bodyFor(operation.operationId, rossi));
        expect([operation.operationId, response.status]).toEqual([operation.operationId, 403]);
        expectError(response, 403, 'forbidden');
        expect(response.text).not.toContain(verdi.secret);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("another company's ids inside a body: 403 with a pointer, nothing changed", async () => {
    const before = await snapshot();
    const company = `/api/v1/companies/${rossi.tenant.companyId}`;
    expectError(
      await api.http.patch(`${company}/documents/${rossi.document}`).set(rossi.tenant.auth).send({ category_id: verdi.category }),
      403,
      'forbidden',
      '/category_id',
    );
    expectError(
      await api.http.post(`${company}/reconciliations`).set(rossi.tenant.auth).send({ flow_id: verdi.flow, transaction_id: rossi.transaction }),
      403,
      'forbidden',
      '/flow_id',
    );
    expectError(
      await api.http.post(`${company}/reconciliations`).set(rossi.tenant.auth).send({ flow_id: rossi.flow, transaction_id: verdi.transaction }),
      403,
      'forbidden',
      '/transaction_id',
    );
    expectError(
      await api.http.post(`${company}/subcategories`).set(rossi.tenant.auth).send({ category_id: verdi.category, name: 'Intrusa' }),
      403,
      'forbidden',
      '/category_id',
    );
    const payment = { payee_name: 'Intruso', iban: 'DE89370400440532013000', amount: { amount: '1.00', currency: 'EUR' } };
    expectError(
      await api.http
        .post(`${company}/requests/bulk-payment`)
        .set(rossi.tenant.auth)
        .send({ account_id: verdi.account, payments: [payment] }),
      403,
      'forbidden',
      '/account_id',
    );
    expectError(
      await api.http
        .post(`${company}/requests/bulk-payment`)
        .set(rossi.tenant.auth)
        .send({ account_id: rossi.account, payments: [payment, { ...payment, flow_ids: [rossi.flow, verdi.flow] }] }),
      403,
      'forbidden',
      '/payments/1/flow_ids/1',
    );
    expectError(
      await api.http.patch(`${company}/documents/${rossi.document}`).set(rossi.tenant.auth).send({ subcategory_id: verdi.subcategory }),
      403,
      'forbidden',
      '/subcategory_id',
    );
    expectError(
      await api.http.patch(`${company}/transactions/${rossi.transaction}`).set(rossi.tenant.auth).send({ category_id: verdi.category }),
      403,
      'forbidden',
      '/category_id',
    );
    expectError(
      await api.http.patch(`${company}/transactions/${rossi.transaction}`).set(rossi.tenant.auth).send({ subcategory_id: verdi.subcategory }),
      403,
      'forbidden',
      '/subcategory_id',
    );
    // In a query: the sectional that would number an invoice.
    const unnumbered = exampleInvoice({ sellerVat: rossi.tenant.vatNumber.slice(2) }) as unknown as {
      fattura_elettronica_body: Array<{ dati_generali: { dati_generali_documento: { numero?: string } } }>;
    };
    delete unnumbered.fattura_elettronica_body[0].dati_generali.dati_generali_documento.numero;
    expectError(
      await api.http.post(`${company}/documents/invoice?sectional_id=${verdi.sectional}`).set(rossi.tenant.auth).send(unnumbered),
      403,
      'forbidden',
      '/query/sectional_id',
    );
    expect(await snapshot()).toEqual(before);
  });

  it("another company's ids in filters match nothing", async () => {
    const company = `/api/v1/companies/${rossi.tenant.companyId}`;
    const get = async (path: string) => (await api.http.get(`${company}/${path}`).set(rossi.tenant.auth).expect(200)).body.data;
    expect(await get(`accounts?filter[id]=${verdi.account}`)).toEqual([]);
    expect(await get(`categories?filter[id__in]=${verdi.category}`)).toEqual([]);
    expect(await get(`subcategories?filter[category_id]=${verdi.category}`)).toEqual([]);
    expect(await get(`transactions?filter[account_id]=${verdi.account}`)).toEqual([]);
    expect(await get(`reconciliations?filter[flow_id__in]=${verdi.flow},${rossi.flow}`)).toEqual([]);
    expect(await get(`documents?filter[counterpart_company_name__ilike]=VERDISECRET`)).toEqual([]);
    expect(await get(`transactions?filter[clean_description__ilike]=secret`)).toEqual([
      expect.objectContaining({ id: rossi.transaction, clean_description: 'ROSSISECRET' }),
    ]);
  });

  it("lists exactly each company's own rows", async () => {
    for (const owned of [rossi, verdi]) {
      const company = `/api/v1/companies/${owned.tenant.companyId}`;
      const ids = async (path: string) =>
        (await api.http.get(`${company}/${path}`).set(owned.tenant.auth).expect(200)).body.data.map((r: { id: string }) => r.id);
      expect(await ids('accounts')).toEqual([owned.account]);
      expect(await ids('categories')).toEqual([owned.category]);
      expect(await ids('subcategories')).toEqual([owned.subcategory]);
      expect(await ids('counterparts')).toEqual([owned.counterpart]);
      expect(await ids('products')).toEqual([owned.product]);
      expect(await ids('documents')).toEqual([owned.document]);
      expect(await ids('transactions')).toEqual([owned.transaction]);
      expect(await ids('reconciliations')).toEqual([owned.reconciliation]);
      expect(await ids('payment-batches')).toEqual([owned.paymentBatch]);
      expect(await ids('sectionals')).toEqual([owned.sectional]);
    }
  });

  it("GET /companies lists only the companies granted to the key's integrator", async () => {
    const list = async (tenant: Tenant) => (await api.http.get('/api/v1/companies').set(tenant.auth).expect(200)).body;
    expect((await list(rossi.tenant)).data.map((c: { id: string }) => c.id)).toEqual([rossi.tenant.companyId]);
    expect((await list(verdi.tenant)).data.map((c: { id: string }) => c.id)).toEqual([verdi.tenant.companyId]);
    // An integrator granted both sees both; one granted none sees an empty list.
    const both = await api.integrators.createIntegrator('Studio Commercialisti Associati');
    await api.integrators.grant(both.id, rossi.tenant.companyId);
    await api.integrators.grant(both.id, verdi.tenant.companyId);
    const bothKey = (await api.integrators.createKey(both.id, 'development')).key;
    const listed = await api.http.get('/api/v1/companies').set('Authorization', `Bearer ${bothKey}`).expect(200);
    expect(listed.body.data.map((c: { id: string }) => c.id).sort()).toEqual([rossi.tenant.companyId, verdi.tenant.companyId].sort());
    const none = await api.integrators.createIntegrator('Nessuno S.r.l.');
    const noneKey = (await api.integrators.createKey(none.id, 'development')).key;
    expect((await api.http.get('/api/v1/companies').set('Authorization', `Bearer ${noneKey}`).expect(200)).body).toEqual({
      data: [],
      page: { cursor: null, size: 25 },
    });
    expectError(await api.http.get(`/api/v1/companies/${rossi.tenant.companyId}/documents`).set('Authorization', `Bearer ${noneKey}`), 403, 'forbidden');
  });
  it("GET /events lists only the events of the companies granted to the key's integrator; naming another company is 403", async () => {
    /** Every event the key lists, once the ones expected are listed (an older transaction anywhere holds an event back). */
    const listed = async (key: string, expected: string[]): Promise<Array<{ id: string; company_id: string }>> => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const events: Array<{ id: string; company_id: string }> = [];
        let cursor: string | null = null;
        do {
          const page: { data: Array<{ id: string; company_id: string }>; page: { cursor: string | null } } = (
            await api.http
              .get(`/api/v1/events?page_size=100${cursor ? `&cursor=${cursor}` : ''}`)
              .set('Authorization', `Bearer ${key}`)
              .expect(200)
          ).body;
          events.push(...page.data);
          cursor = page.page.cursor;
        } while (cursor);
        if (expected.every((id) => events.some((event) => event.id === id)) || Date.now() > deadline) return events;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    for (const [owned, other] of [
      [rossi, verdi],
      [verdi, rossi],
    ]) {
      const events = await listed(owned.tenant.key, [owned.event]);
      expect(events.map((event) => event.id)).toContain(owned.event);
      expect(new Set(events.map((event) => event.company_id))).toEqual(new Set([owned.tenant.companyId]));
      expectError(
        await api.http.get(`/api/v1/events?filter[company_id]=${other.tenant.companyId}`).set(owned.tenant.auth),
        403,
        'forbidden',
        '/query/filter[company_id]',
      );
    }
    const both = await api.integrators.createIntegrator('Studio Eventi Associati');
    await api.integrators.grant(both.id, rossi.tenant.companyId);
    await api.integrators.grant(both.id, verdi.tenant.companyId);
    const bothKey = (await api.integrators.createKey(both.id, 'development')).key;
    const events = await listed(bothKey, [rossi.event, verdi.event]);
    expect(events.map((event) => event.id)).toEqual(expect.arrayContaining([rossi.event, verdi.event]));
    expect(new Set(events.map((event) => event.company_id))).toEqual(new Set([rossi.tenant.companyId, verdi.tenant.companyId]));
  });
});
