import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { byUuid, expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { Category } from './category.entity.js';

describe('categories', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let affitti: Category;
  let bancaA: Category;
  let bancaB: Category;
  let consulenze: Category;
  let utenze: Category;
  let unnamed: Category;
  let energia: Category;
  let foreign: Category;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const fixtures = new Fixtures(api.db, rossi.companyId);
    utenze = await fixtures.category({ name: 'Utenze' });
    affitti = await fixtures.category({ name: 'Affitti' });
    [bancaA, bancaB] = [await fixtures.category({ name: 'Banca' }), await fixtures.category({ name: 'Banca' })].sort((a, b) => byUuid(a.id, b.id));
    consulenze = await fixtures.category({ name: 'Consulenze' });
    unnamed = await fixtures.category({ name: '' });
    energia = await fixtures.category({ name: 'Energia', parentId: utenze.id });
    await fixtures.category({ name: 'Telefono', parentId: utenze.id });
    foreign = await new Fixtures(api.db, verdi.companyId).category({ name: 'Affitti' });
    base = `/api/v1/companies/${rossi.companyId}/categories`;
  });

  afterAll(() => api.close());

  const list = (query = '') => api.http.get(`${base}${query ? `?${query}` : ''}`).set(rossi.auth);

  it('lists top-level categories only, by name then id', async () => {
    const response = await list().expect(200);
    expect(response.body).toEqual({
      data: [
        { id: unnamed.id, name: '' },
        { id: affitti.id, name: 'Affitti' },
        { id: bancaA.id, name: 'Banca' },
        { id: bancaB.id, name: 'Banca' },
        { id: consulenze.id, name: 'Consulenze' },
        { id: utenze.id, name: 'Utenze' },
      ],
      page: { cursor: null, size: 25 },
    });
  });

  it('sorts by -name with ties by id descending', async () => {
    expect(ids(await list('sort=-name').expect(200))).toEqual([utenze.id, consulenze.id, bancaB.id, bancaA.id, affitti.id, unnamed.id]);
  });

  it('filters by name with every string operator', async () => {
    const get = async (query: string) => ids(await list(query).expect(200));
    expect(await get('filter[name]=Banca')).toEqual([bancaA.id, bancaB.id]);
    expect(await get('filter[name__eq]=banca')).toEqual([]);
    expect(await get('filter[name__neq]=Banca')).toEqual([unnamed.id, affitti.id, consulenze.id, utenze.id]);
    expect(await get('filter[name__gt]=Banca')).toEqual([consulenze.id, utenze.id]);
    expect(await get('filter[name__gte]=Banca')).toEqual([bancaA.id, bancaB.id, consulenze.id, utenze.id]);
    expect(await get('filter[name__lt]=Banca')).toEqual([unnamed.id, affitti.id]);
    expect(await get('filter[name__lte]=Banca')).toEqual([unnamed.id, affitti.id, bancaA.id, bancaB.id]);
    expect(await get('filter[name__in]=Utenze,Affitti,Energia')).toEqual([affitti.id, utenze.id]);
    expect(await get('filter[name__notIn]=Utenze,Affitti')).toEqual([unnamed.id, bancaA.id, bancaB.id, consulenze.id]);
    expect(await get('filter[name__empty]=true')).toEqual([unnamed.id]);
    expect(await get('filter[name__empty]=false')).toEqual([affitti.id, bancaA.id, bancaB.id, consulenze.id, utenze.id]);
    // ilike: case-insensitive "contains" without %, a pattern with %; _ is a literal character, not a wildcard.
    expect(await get('filter[name__ilike]=TEN')).toEqual([utenze.id]);
    expect(await get('filter[name__ilike]=a%25')).toEqual([affitti.id]);
    expect(await get('filter[name__ilike]=%25i')).toEqual([affitti.id]);
    expect(await get('filter[name__ilike]=B_nca')).toEqual([]);
    // A subcategory never appears in the list, whatever the filter.
    expect(await get('filter[name]=Energia')).toEqual([]);
  });

  it('filters by id and combines filters with AND', async () => {
    const get = async (query: string) => ids(await list(query).expect(200));
    expect(await get(`filter[id]=${consulenze.id}`)).toEqual([consulenze.id]);
    expect(await get(`filter[id__in]=${consulenze.id},${energia.id},${foreign.id}`)).toEqual([consulenze.id]);
    expect(await get(`filter[id__neq]=${bancaA.id}&filter[name]=Banca`)).toEqual([bancaB.id]);
    expect(await get(`filter[name__gte]=B&filter[name__lt]=D&sort=-name`)).toEqual([consulenze.id, bancaB.id, bancaA.id]);
  });

  it('refuses unknown fields, operators and values with a pointer to the parameter', async () => {
    expectError(await list('filter[parent_id]=x'), 400, 'invalid_query_parameter', '/query/filter[parent_id]');
    expectError(await list('filter[name__between]=a'), 400, 'invalid_query_parameter', '/query/filter[name__between]');
    expectError(await list('filter[id__gt]=' + affitti.id), 400, 'invalid_query_parameter', '/query/filter[id__gt]');
    expectError(await list('filter[name__empty]=yes'), 400, 'invalid_query_parameter', '/query/filter[name__empty]');
    expectError(await list('sort=created_at'), 400, 'invalid_query_parameter', '/query/sort');
    expectError(await list('expand=subcategories'), 400, 'invalid_query_parameter', '/query/expand');
  });

  it("reads one category; 404 unknown, 403 another company's", async () => {
    expect((await api.http.get(`${base}/${consulenze.id}`).set(rossi.auth).expect(200)).body).toEqual({ id: consulenze.id, name: 'Consulenze' });
    expectError(await api.http.get(`${base}/6f1c1a8e-0000-4000-8000-000000000001`).set(rossi.auth), 404, 'not_found', undefined, 'Category was not found.');
    expectError(await api.http.get(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
    expectError(await api.http.get(`${base}/${affitti.id}?sort=name`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/sort');
  });
});

describe('categories: create, rename, delete', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let fixtures: Fixtures;
  let foreign: Category;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    foreign = await new Fixtures(api.db, verdi.companyId).category({ name: 'Affitti' });
    base = `/api/v1/companies/${rossi.companyId}/categories`;
  });

  afterAll(() => api.close());

  const unknown = '6f1c1a8e-0000-4000-8000-000000000001';

  it('creates a top-level category (201) that the list and the read show', async () => {
    const created = await api.http.post(base).set(rossi.auth).send({ name: 'Spese bancarie' }).expect(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Spese bancarie' });
    expect((await api.http.get(`${base}/${created.body.id}`).set(rossi.auth).expect(200)).body).toEqual(created.body);
    expect((await api.http.get(base).set(rossi.auth).expect(200)).body.data).toContainEqual(created.body);
    const row = await api.db.getRepository(Category).findOneByOrFail({ id: created.body.id });
    expect([row.companyId, row.parentId]).toEqual([rossi.companyId, null]);
  });

  it('refuses a bad name: missing or not a string 400, blank or too long 422, unknown members 400', async () => {
    const post = (body: unknown) =>
      api.http
        .post(base)
        .set(rossi.auth)
        .send(body as object);
    expectError(await post({}), 400, 'bad_request', '/name', 'name is required');
    expectError(await post({ name: 12 }), 400, 'bad_request', '/name', 'name must be a string');
    expectError(await post({ name: null }), 400, 'bad_request', '/name');
    expectError(await post({ name: '' }), 422, 'unprocessable_entity', '/name', 'name must not be empty or blank');
    expectError(await post({ name: '   ' }), 422, 'unprocessable_entity', '/name');
    expectError(await post({ name: 'x'.repeat(101) }), 422, 'unprocessable_entity', '/name', 'name must be at most 100 characters long');
    expectError(await post({ name: 'Utenze', parent_id: unknown }), 400, 'bad_request', '/parent_id');
    expect((await post({ name: 'x'.repeat(100) }).expect(201)).body.name).toHaveLength(100);
  });

  it('renames a category; the documents that use it show the new name', async () => {
    const category = await fixtures.category({ name: 'Utenze' });
    const document = await fixtures.document({ categoryId: category.id });
    const renamed = await api.http.patch(`${base}/${category.id}`).set(rossi.auth).send({ name: 'Utenze e bollette' }).expect(200);
    expect(renamed.body).toEqual({ id: category.id, name: 'Utenze e bollette' });
    const read = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${document.id}?expand=category`).set(rossi.auth).expect(200);
    expect(read.body.category).toEqual({ id: category.id, name: 'Utenze e bollette' });
    expectError(await api.http.patch(`${base}/${category.id}`).set(rossi.auth).send({}), 400, 'bad_request', '/name');
    expectError(await api.http.patch(`${base}/${category.id}`).set(rossi.auth).send({ name: ' ' }), 422, 'unprocessable_entity', '/name');
  });

  it("answers 404 for unknown ids and subcategory ids, 403 for another company's", async () => {
    const parent = await fixtures.category({ name: 'Utenze' });
    const subcategory = await fixtures.category({ name: 'Energia', parentId: parent.id });
    for (const id of [unknown, subcategory.id, 'not-a-uuid']) {
      expectError(await api.http.get(`${base}/${id}`).set(rossi.auth), 404, 'not_found', undefined, 'Category was not found.');
      expectError(await api.http.patch(`${base}/${id}`).set(rossi.auth).send({ name: 'X' }), 404, 'not_found', undefined, 'Category was not found.');
      expectError(await api.http.delete(`${base}/${id}`).set(rossi.auth), 404, 'not_found', undefined, 'Category was not found.');
    }
    expectError(await api.http.patch(`${base}/${foreign.id}`).set(rossi.auth).send({ name: 'X' }), 403, 'forbidden');
    expectError(await api.http.delete(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
    expectError(await api.http.post(`/api/v1/companies/${verdi.companyId}/categories`).set(rossi.auth).send({ name: 'X' }), 403, 'forbidden');
    expect((await api.db.getRepository(Category).findOneByOrFail({ id: foreign.id })).name).toBe('Affitti');
    expect(await api.db.getRepository(Category).existsBy({ id: subcategory.id })).toBe(true);
  });

  it('deletes an unused category together with its unused subcategories (204)', async () => {
    const category = await fixtures.category({ name: 'Da cancellare' });
    const subcategory = await fixtures.category({ name: 'Anche questa', parentId: category.id });
    await api.http.delete(`${base}/${category.id}`).set(rossi.auth).expect(204, '');
    expect(await api.db.getRepository(Category).existsBy({ id: category.id })).toBe(false);
    expect(await api.db.getRepository(Category).existsBy({ id: subcategory.id })).toBe(false);
    expectError(await api.http.delete(`${base}/${category.id}`).set(rossi.auth), 404, 'not_found');
  });

  it('refuses to delete a category that a document, a transaction or one of its subcategories uses (409 category_in_use)', async () => {
    const account = await fixtures.account();
    const byDocument = await fixtures.category({ name: 'Ricavi' });
    await fixtures.document({ categoryId: byDocument.id });
    await fixtures.document({ categoryId: byDocument.id, number: 'FV-2026/0002' });
    const byTransaction = await fixtures.category({ name: 'Banca' });
    await fixtures.transaction(account, { categoryId: byTransaction.id });
    const bySubcategory = await fixtures.category({ name: 'Utenze' });
    const energia = await fixtures.category({ name: 'Energia', parentId: bySubcategory.id });
    await fixtures.transaction(account, { subcategoryId: energia.id });

    const refused = (id: string) => api.http.delete(`${base}/${id}`).set(rossi.auth);
    expectError(
      await refused(byDocument.id),
      409,
      'category_in_use',
      undefined,
      'The category (or one of its subcategories) is used by 2 documents and 0 transactions; give them another category (or none) before deleting it.',
    );
    expectError(await refused(byTransaction.id), 409, 'category_in_use', undefined, /used by 0 documents and 1 transaction;/);
    expectError(await refused(bySubcategory.id), 409, 'category_in_use', undefined, /used by 0 documents and 1 transaction;/);
    for (const id of [byDocument.id, byTransaction.id, bySubcategory.id, energia.id]) {
      expect(await api.db.getRepository(Category).existsBy({ id })).toBe(true);
    }
  });

  it('is refused by the database too: a category in use cannot be deleted behind the API', async () => {
    const category = await fixtures.category({ name: 'Protetta' });
    await fixtures.document({ categoryId: category.id });
    await expect(api.db.query('DELETE FROM categories WHERE id = $1', [category.id])).rejects.toThrow(/foreign key/);
  });

  it('still deletes a whole company with its categories, documents and transactions', async () => {
    const other = await createTenant(api, 'Bianchi Impianti S.r.l.');
    const own = new Fixtures(api.db, other.companyId);
    const category = await own.category({ name: 'Utenze' });
    const subcategory = await own.category({ name: 'Energia', parentId: category.id });
    await own.document({ categoryId: category.id, subcategoryId: subcategory.id });
    await own.transaction(await own.account(), { categoryId: category.id, subcategoryId: subcategory.id });
    await api.db.query('DELETE FROM companies WHERE id = $1', [other.companyId]);
    expect(await api.db.getRepository(Category).countBy({ companyId: other.companyId })).toBe(0);
  });
});
