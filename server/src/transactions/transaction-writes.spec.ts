import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import type { Category } from '../categories/category.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import type { Transaction } from './transaction.entity.js';

describe('transaction writes', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let base: string;
  let account: Account;
  let utenze: Category;
  let energia: Category;
  let telefonia: Category;
  let consulenze: Category;
  let legali: Category;
  let foreignCategory: Category;
  let foreignSubcategory: Category;
  let foreign: Transaction;

  const UNKNOWN = '3c2b1a00-0000-4000-8000-000000000000';

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    account = await fixtures.account();
    utenze = await fixtures.category({ name: 'Utenze' });
    energia = await fixtures.category({ name: 'Energia', parentId: utenze.id });
    telefonia = await fixtures.category({ name: 'Telefonia', parentId: utenze.id });
    consulenze = await fixtures.category({ name: 'Consulenze' });
    legali = await fixtures.category({ name: 'Legali', parentId: consulenze.id });
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreignCategory = await verdiFixtures.category({ name: 'Utenze' });
    foreignSubcategory = await verdiFixtures.category({ name: 'Energia', parentId: foreignCategory.id });
    foreign = await verdiFixtures.transaction(await verdiFixtures.account());
    base = `/api/v1/companies/${rossi.companyId}/transactions`;
  });

  afterAll(() => api.close());

  const transaction = (values: Partial<Transaction> = {}) => fixtures.transaction(account, { type: 'DEBIT', amount: '180.35', ...values });
  const patch = (id: string, body: unknown) =>
    api.http
      .patch(`${base}/${id}`)
      .set(rossi.auth)
      .send(body as object);
  const stored = async (id: string) => (await api.http.get(`${base}/${id}`).set(rossi.auth).expect(200)).body;
  const eventCount = () => api.db.getRepository(DomainEvent).count();

  it('sets category and subcategory, answering with every member expanded; the bank data stays', async () => {
    const t = await transaction();
    const document = await fixtures.document({ direction: 'RECEIVED', grossAmount: '180.35' });
    const flow = await fixtures.flow(document, { amount: '180.35' });
    const link = await fixtures.reconciliation(flow, t);
    const events = await eventCount();
    const response = await patch(t.id, { category_id: utenze.id, subcategory_id: energia.id }).expect(200);
    expect(response.body).toEqual({
      id: t.id,
      account_id: account.id,
      type: 'DEBIT',
      amount: { amount: '180.35', currency: 'EUR' },
      booking_date_time: t.bookingDateTime!.toISOString(),
      date: t.date,
      value_date: t.valueDate,
      description: t.description,
      clean_description: t.cleanDescription,
      counterpart_name: t.counterpartName,
      created_at: t.createdAt.toISOString(),
      category_id: utenze.id,
      category: { id: utenze.id, name: 'Utenze' },
      subcategory_id: energia.id,
      subcategory: { id: energia.id, name: 'Energia' },
      reconciliations: [expect.objectContaining({ id: link.id, flow: expect.objectContaining({ id: flow.id }) })],
    });
    expect(await stored(t.id)).toMatchObject({ category_id: utenze.id, subcategory_id: energia.id });
    // Transactions have no events; nor does the document the transaction pays change.
    expect(await eventCount()).toBe(events);
  });

  it('follows the documents rule: subcategory alone within the current category, category alone keeps or clears the subcategory, null clears', async () => {
    const t = await transaction({ categoryId: utenze.id, subcategoryId: energia.id });
    expect((await patch(t.id, { subcategory_id: telefonia.id }).expect(200)).body).toMatchObject({ category_id: utenze.id, subcategory_id: telefonia.id });
    expect((await patch(t.id, { category_id: utenze.id.toUpperCase() }).expect(200)).body).toMatchObject({
      category_id: utenze.id,
      subcategory_id: telefonia.id,
    });
    expect((await patch(t.id, { category_id: consulenze.id }).expect(200)).body).toMatchObject({ category_id: consulenze.id, subcategory_id: null });
    expect((await patch(t.id, { subcategory_id: legali.id }).expect(200)).body).toMatchObject({ category_id: consulenze.id, subcategory_id: legali.id });
    expect((await patch(t.id, { subcategory_id: null }).expect(200)).body).toMatchObject({ category_id: consulenze.id, subcategory_id: null });
    await patch(t.id, { subcategory_id: legali.id }).expect(200);
    expect((await patch(t.id, { category_id: null }).expect(200)).body).toMatchObject({
      category_id: null,
      category: null,
      subcategory_id: null,
      subcategory: null,
    });
  });

  it('refuses a subcategory of another category with 422 subcategory_mismatch at /subcategory_id, changing nothing', async () => {
    const t = await transaction({ categoryId: utenze.id, subcategoryId: energia.id });
    const bare = await transaction();
    expectError(
      await patch(t.id, { subcategory_id: legali.id }),
      422,
      'subcategory_mismatch',
      '/subcategory_id',
      `The subcategory belongs to category ${consulenze.id}, not to the transaction's category; send the subcategory's category_id with it.`,
    );
    expectError(
      await patch(t.id, { category_id: consulenze.id, subcategory_id: energia.id }),
      422,
      'subcategory_mismatch',
      '/subcategory_id',
      `The subcategory belongs to category ${utenze.id}, not to the category_id of this request.`,
    );
    expectError(await patch(t.id, { category_id: null, subcategory_id: energia.id }), 422, 'subcategory_mismatch', '/subcategory_id');
    expectError(await patch(bare.id, { subcategory_id: energia.id }), 422, 'subcategory_mismatch', '/subcategory_id', /the transaction has no category/);
    expect(await stored(t.id)).toMatchObject({ category_id: utenze.id, subcategory_id: energia.id });
    expect(await stored(bare.id)).toMatchObject({ category_id: null, subcategory_id: null });
  });

  it('refuses wrong-level ids (422), unknown ids (404) and foreign ones (403) with pointers', async () => {
    const t = await transaction({ categoryId: utenze.id });
    expectError(await patch(t.id, { subcategory_id: utenze.id }), 422, 'unprocessable_entity', '/subcategory_id');
    expectError(await patch(t.id, { category_id: energia.id }), 422, 'unprocessable_entity', '/category_id');
    expectError(await patch(t.id, { category_id: UNKNOWN }), 404, 'not_found', '/category_id', 'Category was not found.');
    expectError(await patch(t.id, { subcategory_id: UNKNOWN }), 404, 'not_found', '/subcategory_id', 'Subcategory was not found.');
    expectError(await patch(t.id, { category_id: foreignCategory.id }), 403, 'forbidden', '/category_id');
    expectError(await patch(t.id, { subcategory_id: foreignSubcategory.id }), 403, 'forbidden', '/subcategory_id');
    expect(await stored(t.id)).toMatchObject({ category_id: utenze.id, subcategory_id: null });
  });

  it('answers 400 for malformed members, members it does not change, and an empty body', async () => {
    const t = await transaction();
    expectError(await patch(t.id, { category_id: 'utenze' }), 400, 'bad_request', '/category_id', 'category_id must be a uuid or null');
    expectError(await patch(t.id, { subcategory_id: 12 }), 400, 'bad_request', '/subcategory_id', 'subcategory_id must be a uuid or null');
    expectError(await patch(t.id, { category_id: `${utenze.id}\u0000` }), 422, 'unprocessable_entity', '/category_id', /NUL/);
    expectError(await patch(t.id, { category_id: 'x'.repeat(800_000) }), 400, 'bad_request', '/category_id');
    expectError(await patch(t.id, { amount: { amount: '1.00', currency: 'EUR' } }), 400, 'bad_request', '/amount');
    expectError(await patch(t.id, { description: 'x' }), 400, 'bad_request', '/description');
    expectError(await patch(t.id, {}), 400, 'bad_request', '', 'The body names no member to update; send category_id or subcategory_id.');
    expectError(await patch(t.id, [utenze.id]), 400, 'bad_request', '', 'The request body must be a JSON object.');
    expect(await stored(t.id)).toMatchObject({ category_id: null, amount: { amount: '180.35' }, description: t.description });
  });

  it("answers 404 for an unknown transaction and 403 for another company's, which stays as it was", async () => {
    expectError(await patch(UNKNOWN, { category_id: null }), 404, 'not_found', undefined, 'Transaction was not found.');
    expectError(await patch('%00', { category_id: null }), 404, 'not_found');
    expectError(await patch(foreign.id, { category_id: null }), 403, 'forbidden');
    expectError(await patch(foreign.id, { category_id: foreignCategory.id, subcategory_id: foreignSubcategory.id }), 403, 'forbidden');
    const theirs = await api.http.get(`/api/v1/companies/${verdi.companyId}/transactions/${foreign.id}`).set(verdi.auth).expect(200);
    expect(theirs.body).toMatchObject({ category_id: null, subcategory_id: null });
  });

  it('serialises with deleting the category: the category is either in use (409) or gone (the PATCH answers 404)', async () => {
    for (let round = 0; round < 5; round++) {
      const t = await transaction();
      const category = await fixtures.category({ name: `Round ${round}` });
      const [patched, deleted] = await Promise.all([
        patch(t.id, { category_id: category.id }),
        api.http.delete(`/api/v1/companies/${rossi.companyId}/categories/${category.id}`).set(rossi.auth),
      ]);
      expect([
        [200, 409],
        [404, 204],
      ]).toContainEqual([patched.status, deleted.status]);
    }
  });
});
