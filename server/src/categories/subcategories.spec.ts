import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { byUuid, expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { Category } from './category.entity.js';

describe('subcategories', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let fixtures: Fixtures;
  let utenze: Category;
  let affitti: Category;
  let energia: Category;
  let telefonoA: Category;
  let telefonoB: Category;
  let ufficio: Category;
  let foreignParent: Category;
  let foreign: Category;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    utenze = await fixtures.category({ name: 'Utenze' });
    affitti = await fixtures.category({ name: 'Affitti' });
    energia = await fixtures.category({ name: 'Energia', parentId: utenze.id });
    [telefonoA, telefonoB] = [
      await fixtures.category({ name: 'Telefono', parentId: utenze.id }),
      await fixtures.category({ name: 'Telefono', parentId: utenze.id }),
    ].sort((a, b) => byUuid(a.id, b.id));
    ufficio = await fixtures.category({ name: 'Ufficio', parentId: affitti.id });
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreignParent = await verdiFixtures.category({ name: 'Utenze' });
    foreign = await verdiFixtures.category({ name: 'Energia', parentId: foreignParent.id });
    base = `/api/v1/companies/${rossi.companyId}/subcategories`;
  });

  afterAll(() => api.close());

  const unknown = '6f1c1a8e-0000-4000-8000-000000000001';
  const list = (query = '') => api.http.get(`${base}${query ? `?${query}` : ''}`).set(rossi.auth);

  it('lists subcategories only, by name then id, each with its category_id', async () => {
    const response = await list().expect(200);
    expect(response.body).toEqual({
      data: [
        { id: energia.id, name: 'Energia', category_id: utenze.id },
        { id: telefonoA.id, name: 'Telefono', category_id: utenze.id },
        { id: telefonoB.id, name: 'Telefono', category_id: utenze.id },
        { id: ufficio.id, name: 'Ufficio', category_id: affitti.id },
      ],
      page: { cursor: null, size: 25 },
    });
  });

  it('filters by category_id, id and name, sorts by -name and pages', async () => {
    const get = async (query: string) => ids(await list(query).expect(200));
    expect(await get(`filter[category_id]=${utenze.id}`)).toEqual([energia.id, telefonoA.id, telefonoB.id]);
    expect(await get(`filter[category_id]=${affitti.id}`)).toEqual([ufficio.id]);
    expect(await get(`filter[category_id__in]=${affitti.id},${foreignParent.id}`)).toEqual([ufficio.id]);
    expect(await get(`filter[category_id]=${foreignParent.id}`)).toEqual([]);
    expect(await get(`filter[id]=${energia.id}`)).toEqual([energia.id]);
    expect(await get('filter[name__ilike]=tele')).toEqual([telefonoA.id, telefonoB.id]);
    expect(await get('sort=-name')).toEqual([ufficio.id, telefonoB.id, telefonoA.id, energia.id]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: Response = await list(`page_size=3${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      seen.push(...ids(response));
      cursor = response.body.page.cursor;
    } while (cursor);
    expect(seen).toEqual([energia.id, telefonoA.id, telefonoB.id, ufficio.id]);
    expectError(await list('filter[category_id]=abc'), 400, 'invalid_query_parameter', '/query/filter[category_id]');
    expectError(await list('filter[parent_id]=' + utenze.id), 400, 'invalid_query_parameter', '/query/filter[parent_id]');
    expectError(await list('sort=category_id'), 400, 'invalid_query_parameter', '/query/sort');
  });

  it("reads one subcategory; 404 for unknown and top-level ids, 403 for another company's", async () => {
    expect((await api.http.get(`${base}/${energia.id}`).set(rossi.auth).expect(200)).body).toEqual({
      id: energia.id,
      name: 'Energia',
      category_id: utenze.id,
    });
    for (const id of [unknown, utenze.id]) {
      expectError(await api.http.get(`${base}/${id}`).set(rossi.auth), 404, 'not_found', undefined, 'Subcategory was not found.');
    }
    expectError(await api.http.get(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden', undefined, 'This API key has no access to this subcategory.');
    expectError(await api.http.get(`${base}/${energia.id}?expand=category`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/expand');
    // The category routes no longer answer for a subcategory id.
    expectError(await api.http.get(`/api/v1/companies/${rossi.companyId}/categories/${energia.id}`).set(rossi.auth), 404, 'not_found');
  });

  it('creates a subcategory under a top-level category (201)', async () => {
    const created = await api.http.post(base).set(rossi.auth).send({ category_id: affitti.id.toUpperCase(), name: 'Magazzino' }).expect(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Magazzino', category_id: affitti.id });
    expect((await api.http.get(`${base}/${created.body.id}`).set(rossi.auth).expect(200)).body).toEqual(created.body);
    expect(ids(await list(`filter[category_id]=${affitti.id}`))).toContain(created.body.id);
  });

  it('refuses bad creation payloads with a pointer to the member', async () => {
    const post = (body: unknown) =>
      api.http
        .post(base)
        .set(rossi.auth)
        .send(body as object);
    expectError(await post({ name: 'Gas' }), 400, 'bad_request', '/category_id', 'category_id is required');
    expectError(await post({ category_id: 'utenze', name: 'Gas' }), 400, 'bad_request', '/category_id', 'category_id must be a uuid');
    expectError(await post({ category_id: utenze.id }), 400, 'bad_request', '/name', 'name is required');
    expectError(await post({ category_id: utenze.id, name: '' }), 422, 'unprocessable_entity', '/name');
    expectError(await post({ category_id: unknown, name: 'Gas' }), 404, 'not_found', '/category_id', 'Category was not found.');
    expectError(await post({ category_id: foreignParent.id, name: 'Gas' }), 403, 'forbidden', '/category_id');
    expectError(
      await post({ category_id: energia.id, name: 'Gas' }),
      422,
      'unprocessable_entity',
      '/category_id',
      'category_id names a subcategory; a subcategory belongs to a top-level category.',
    );
    expect(await api.db.getRepository(Category).countBy({ name: 'Gas' })).toBe(0);
  });

  it('renames a subcategory; it stays under its category', async () => {
    const gas = await fixtures.category({ name: 'Gas', parentId: utenze.id });
    const renamed = await api.http.patch(`${base}/${gas.id}`).set(rossi.auth).send({ name: 'Gas metano' }).expect(200);
    expect(renamed.body).toEqual({ id: gas.id, name: 'Gas metano', category_id: utenze.id });
    expectError(await api.http.patch(`${base}/${gas.id}`).set(rossi.auth).send({ name: 'Gas', category_id: affitti.id }), 400, 'bad_request', '/category_id');
    expectError(await api.http.patch(`${base}/${gas.id}`).set(rossi.auth).send({ name: 7 }), 400, 'bad_request', '/name');
    expectError(await api.http.patch(`${base}/${utenze.id}`).set(rossi.auth).send({ name: 'X' }), 404, 'not_found', undefined, 'Subcategory was not found.');
    expectError(await api.http.patch(`${base}/${unknown}`).set(rossi.auth).send({ name: 'X' }), 404, 'not_found');
    expectError(await api.http.patch(`${base}/${foreign.id}`).set(rossi.auth).send({ name: 'X' }), 403, 'forbidden');
    expect((await api.db.getRepository(Category).findOneByOrFail({ id: foreign.id })).name).toBe('Energia');
  });

  it('deletes an unused subcategory; refuses one in use (409 category_in_use)', async () => {
    const unused = await fixtures.category({ name: 'Acqua', parentId: utenze.id });
    await api.http.delete(`${base}/${unused.id}`).set(rossi.auth).expect(204);
    expect(await api.db.getRepository(Category).existsBy({ id: unused.id })).toBe(false);
    expect(await api.db.getRepository(Category).existsBy({ id: utenze.id })).toBe(true);

    const used = await fixtures.category({ name: 'Internet', parentId: utenze.id });
    await fixtures.document({ categoryId: utenze.id, subcategoryId: used.id });
    expectError(
      await api.http.delete(`${base}/${used.id}`).set(rossi.auth),
      409,
      'category_in_use',
      undefined,
      'The subcategory is used by 1 document and 0 transactions; give them another subcategory (or none) before deleting it.',
    );
    expectError(await api.http.delete(`${base}/${utenze.id}`).set(rossi.auth), 404, 'not_found', undefined, 'Subcategory was not found.');
    expectError(await api.http.delete(`${base}/${unknown}`).set(rossi.auth), 404, 'not_found');
    expectError(await api.http.delete(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
    expect(await api.db.getRepository(Category).existsBy({ id: foreign.id })).toBe(true);
  });

  it('deletes exactly once when two deletes race, and never deletes a subcategory being put to use', async () => {
    const racing = await fixtures.category({ name: 'Concorrenza', parentId: utenze.id });
    const statuses = (await Promise.all([1, 2, 3].map(() => api.http.delete(`${base}/${racing.id}`).set(rossi.auth)))).map((r) => r.status).sort();
    expect(statuses).toEqual([204, 404, 404]);

    // A document takes the subcategory while the delete runs: one of them wins, and no document points at nothing.
    const contested = await fixtures.category({ name: 'Conteso', parentId: utenze.id });
    const document = await fixtures.document();
    const [deleted] = await Promise.all([
      api.http.delete(`${base}/${contested.id}`).set(rossi.auth),
      api.db.query('UPDATE documents SET category_id = $1, subcategory_id = $2 WHERE id = $3', [utenze.id, contested.id, document.id]).catch(() => null),
    ]);
    const [{ subcategory_id }] = await api.db.query('SELECT subcategory_id FROM documents WHERE id = $1', [document.id]);
    if (deleted.status === 204) expect(subcategory_id).toBeNull();
    else {
      expectError(deleted, 409, 'category_in_use');
      expect(subcategory_id).toBe(contested.id);
    }
  });
});
