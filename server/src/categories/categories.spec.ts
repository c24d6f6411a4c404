import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { byUuid, expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Category } from './category.entity.js';

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

  it('reads one category; 404 unknown, 403 another company\'s', async () => {
    expect((await api.http.get(`${base}/${consulenze.id}`).set(rossi.auth).expect(200)).body).toEqual({ id: consulenze.id, name: 'Consulenze' });
    expectError(await api.http.get(`${base}/6f1c1a8e-0000-4000-8000-000000000001`).set(rossi.auth), 404, 'not_found', undefined, 'Category was not found.');
    expectError(await api.http.get(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
    expectError(await api.http.get(`${base}/${affitti.id}?sort=name`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/sort');
  });
});
