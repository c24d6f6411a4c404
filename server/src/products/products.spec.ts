import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';

const UNKNOWN = '6f1c1a8e-0000-4000-8000-000000000001';

const margherita = {
  code: 'PIZZA-MARG',
  description: 'Pizza margherita',
  unit_price: { amount: '8.50', currency: 'EUR' },
  unit_of_measure: 'PZ',
  vat_percentage: '10',
};

describe('products', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let foreignId: string;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    base = `/api/v1/companies/${rossi.companyId}/products`;
    foreignId = (await api.http.post(`/api/v1/companies/${verdi.companyId}/products`).set(verdi.auth).send(margherita).expect(201)).body.id;
  });

  afterAll(() => api.close());

  const create = (body: object) => api.http.post(base).set(rossi.auth).send(body);
  const patch = (id: string, body: object) => api.http.patch(`${base}/${id}`).set(rossi.auth).send(body);

  it('creates a product and reads it back; the VAT rate is answered with two decimals', async () => {
    const created = await create(margherita).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      code: 'PIZZA-MARG',
      description: 'Pizza margherita',
      unit_price: { amount: '8.50', currency: 'EUR' },
      unit_of_measure: 'PZ',
      vat_percentage: '10.00',
      tax_exemption: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.http.get(`${base}/${created.body.id}`).set(rossi.auth).expect(200)).body).toEqual(created.body);
  });

  it('a 0% product carries the Natura code that says why no VAT is charged', async () => {
    const body = {
      code: 'EXPORT-1',
      description: 'Fornitura per esportazione',
      unit_price: { amount: '100', currency: 'USD' },
      vat_percentage: '0',
      tax_exemption: 'N3.1',
    };
    expect((await create(body).expect(201)).body).toMatchObject({ vat_percentage: '0.00', tax_exemption: 'N3.1', unit_of_measure: null });
  });

  it('refuses every invalid member with its pointer: 400 for shape, 422 for values', async () => {
    const without = (member: string) => Object.fromEntries(Object.entries(margherita).filter(([key]) => key !== member));
    for (const member of ['code', 'description', 'unit_price', 'vat_percentage']) {
      expectError(await create(without(member)), 400, 'bad_request', `/${member}`, `${member} is required`);
    }
    expectError(await create({ ...margherita, code: 12 }), 400, 'bad_request', '/code');
    expectError(await create({ ...margherita, code: '  ' }), 422, 'unprocessable_entity', '/code', 'code must not be empty or blank');
    expectError(await create({ ...margherita, code: 'X'.repeat(36) }), 422, 'unprocessable_entity', '/code', 'code must be at most 35 characters long');
    expectError(await create({ ...margherita, description: 'x'.repeat(1001) }), 422, 'unprocessable_entity', '/description');
    expectError(await create({ ...margherita, unit_price: '8.50' }), 400, 'bad_request', '/unit_price');
    expectError(await create({ ...margherita, unit_price: { amount: '-1', currency: 'EUR' } }), 422, 'unprocessable_entity', '/unit_price/amount');
    expectError(await create({ ...margherita, unit_price: { amount: '8.50', currency: 'EURO' } }), 422, 'unprocessable_entity', '/unit_price/currency');
    expectError(await create({ ...margherita, unit_of_measure: 'confezioni da 6' }), 422, 'unprocessable_entity', '/unit_of_measure');
    expectError(await create({ ...margherita, vat_percentage: 22 }), 400, 'bad_request', '/vat_percentage');
    for (const rate of ['100.01', '101', '22.001', '-1', '']) {
      expectError(await create({ ...margherita, vat_percentage: rate }), 422, 'unprocessable_entity', '/vat_percentage');
    }
    expectError(
      await create({ ...margherita, vat_percentage: '0', tax_exemption: 'N8' }),
      422,
      'unprocessable_entity',
      '/tax_exemption',
      /^tax_exemption must be a FatturaPA Natura code: N1, N2\.1, N2\.2, N3\.1/,
    );
    // The generic codes the SDI refuses since 2021 (00445).
    expectError(await create({ ...margherita, vat_percentage: '0', tax_exemption: 'N2' }), 422, 'unprocessable_entity', '/tax_exemption');
    expectError(await create({ ...margherita, vat_percentage: '0', tax_exemption: 'N6' }), 422, 'unprocessable_entity', '/tax_exemption');
    expectError(
      await create({ ...margherita, vat_percentage: '0.00' }),
      422,
      'unprocessable_entity',
      '/tax_exemption',
      'tax_exemption is required when vat_percentage is 0: give the Natura code that says why no VAT is charged.',
    );
    expectError(
      await create({ ...margherita, vat_percentage: '22', tax_exemption: 'N4' }),
      422,
      'unprocessable_entity',
      '/tax_exemption',
      'tax_exemption N4 is only allowed with a vat_percentage of 0 (this one is 22.00); send null to clear it.',
    );
    expectError(await create({ ...margherita, price: '8.50' }), 400, 'bad_request', '/price');
    expect((await api.db.query('SELECT count(*)::int AS n FROM products WHERE company_id = $1 AND code = $2', [rossi.companyId, 'X'.repeat(36)]))[0].n).toBe(0);
  });

  it('one product per code in a company: 409 product_exists naming it; another company may use the code', async () => {
    const first = (await create({ ...margherita, code: 'BIBITA' }).expect(201)).body;
    expectError(
      await create({ ...margherita, code: 'BIBITA', description: 'Altra' }),
      409,
      'product_exists',
      '/code',
      `Product ${first.id} of this company already has the code BIBITA.`,
    );
    await api.http
      .post(`/api/v1/companies/${verdi.companyId}/products`)
      .set(verdi.auth)
      .send({ ...margherita, code: 'BIBITA' })
      .expect(201);
    const second = (await create({ ...margherita, code: 'BIBITA-2' }).expect(201)).body;
    expectError(await patch(second.id, { code: 'BIBITA' }), 409, 'product_exists', '/code', `Product ${first.id} of this company already has the code BIBITA.`);
    expect((await api.http.get(`${base}/${second.id}`).set(rossi.auth).expect(200)).body.code).toBe('BIBITA-2');
  });

  it('updates the members sent; the rate rule is checked on the result', async () => {
    const product = (await create({ ...margherita, code: 'CALZONE' }).expect(201)).body;
    const renamed = (
      await patch(product.id, { description: 'Calzone farcito', unit_price: { amount: '9.00', currency: 'EUR' }, unit_of_measure: null }).expect(200)
    ).body;
    expect(renamed).toMatchObject({
      code: 'CALZONE',
      description: 'Calzone farcito',
      unit_price: { amount: '9.00', currency: 'EUR' },
      unit_of_measure: null,
      vat_percentage: '10.00',
    });
    expect(renamed.updated_at >= product.updated_at).toBe(true);

    expectError(await patch(product.id, { vat_percentage: '0' }), 422, 'unprocessable_entity', '/tax_exemption');
    expectError(await patch(product.id, { tax_exemption: 'N4' }), 422, 'unprocessable_entity', '/tax_exemption');
    const exempt = (await patch(product.id, { vat_percentage: '0', tax_exemption: 'N4' }).expect(200)).body;
    expect(exempt).toMatchObject({ vat_percentage: '0.00', tax_exemption: 'N4' });
    expectError(await patch(product.id, { vat_percentage: '22' }), 422, 'unprocessable_entity', '/tax_exemption');
    expectError(await patch(product.id, { tax_exemption: null }), 422, 'unprocessable_entity', '/tax_exemption');
    expect((await patch(product.id, { vat_percentage: '22', tax_exemption: null }).expect(200)).body).toMatchObject({
      vat_percentage: '22.00',
      tax_exemption: null,
    });

    expectError(await patch(product.id, {}), 400, 'bad_request', '', 'The body names no member to update.');
    expectError(await patch(product.id, { code: null }), 400, 'bad_request', '/code');
    expectError(await patch(product.id, { vat_percentage: '1000' }), 422, 'unprocessable_entity', '/vat_percentage');
    expectError(await patch(product.id, { unit_price: { amount: '1' } }), 400, 'bad_request', '/unit_price/currency');
  });

  it("another company's product is 403 and an unknown one 404, for every call", async () => {
    for (const id of [foreignId, UNKNOWN, 'not-a-uuid']) {
      const [status, code] = id === foreignId ? [403, 'forbidden' as const] : [404, 'not_found' as const];
      expectError(await api.http.get(`${base}/${id}`).set(rossi.auth), status, code);
      expectError(await patch(id, { description: 'x' }), status, code);
      expectError(await api.http.delete(`${base}/${id}`).set(rossi.auth), status, code);
    }
    expectError(await api.http.get(`${base}/${UNKNOWN}`).set(rossi.auth), 404, 'not_found', undefined, 'Product was not found.');
    expect((await api.http.get(`/api/v1/companies/${verdi.companyId}/products/${foreignId}`).set(verdi.auth).expect(200)).body.description).toBe(
      'Pizza margherita',
    );
    expectError(await api.http.get(`/api/v1/companies/${verdi.companyId}/products`).set(rossi.auth), 403, 'forbidden');
  });

  it('deletes a product: 204, then it is gone', async () => {
    const product = (await create({ ...margherita, code: 'DA-TOGLIERE' }).expect(201)).body;
    await api.http.delete(`${base}/${product.id}`).set(rossi.auth).expect(204);
    expectError(await api.http.get(`${base}/${product.id}`).set(rossi.auth), 404, 'not_found');
    expectError(await api.http.delete(`${base}/${product.id}`).set(rossi.auth), 404, 'not_found');
    // Its code is free again.
    await create({ ...margherita, code: 'DA-TOGLIERE' }).expect(201);
  });
});

describe('products: the list', () => {
  let api: TestApi;
  let rossi: Tenant;
  let base: string;
  const made: Record<string, string> = {};

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api);
    base = `/api/v1/companies/${rossi.companyId}/products`;
    for (const [code, description, rate, exemption] of [
      ['B-200', 'Birra media', '22', null],
      ['A-100', 'Acqua naturale', '10', null],
      ['C-300', 'Coperto', '0', 'N4'],
      ['A-110', 'Acqua frizzante', '10', null],
      ['E-500', 'Servizio per esportazione', '0', 'N3.1'],
    ] as const) {
      const body = { code, description, unit_price: { amount: '2.00', currency: 'EUR' }, vat_percentage: rate, tax_exemption: exemption };
      made[code] = (await api.http.post(base).set(rossi.auth).send(body).expect(201)).body.id;
    }
  });

  afterAll(() => api.close());

  const list = async (query = '') =>
    ids(
      await api.http
        .get(`${base}${query ? `?${query}` : ''}`)
        .set(rossi.auth)
        .expect(200),
    );

  it('lists by code, pages with a cursor, sorts and filters', async () => {
    const byCode = ['A-100', 'A-110', 'B-200', 'C-300', 'E-500'].map((code) => made[code]);
    expect(await list()).toEqual(byCode);
    expect(await list('sort=-code')).toEqual([...byCode].reverse());
    expect(await list('sort=created_at')).toEqual(['B-200', 'A-100', 'C-300', 'A-110', 'E-500'].map((code) => made[code]));
    const first = await api.http.get(`${base}?page_size=2`).set(rossi.auth).expect(200);
    expect(ids(first)).toEqual(byCode.slice(0, 2));
    expect(await list(`page_size=2&cursor=${first.body.page.cursor}`)).toEqual(byCode.slice(2, 4));
    expect(await list('filter[code__in]=A-100,E-500')).toEqual([made['A-100'], made['E-500']]);
    expect(await list('filter[description__ilike]=acqua')).toEqual([made['A-100'], made['A-110']]);
    expect(await list('filter[tax_exemption__empty]=false')).toEqual([made['C-300'], made['E-500']]);
    expect(await list('filter[tax_exemption]=N4')).toEqual([made['C-300']]);
    expect(await list(`filter[id]=${made['B-200']}`)).toEqual([made['B-200']]);
  });

  it('refuses unknown filters and sorts with a pointer to the parameter', async () => {
    const get = (query: string) => api.http.get(`${base}?${query}`).set(rossi.auth);
    expectError(await get('filter[unit_price]=2'), 400, 'invalid_query_parameter', '/query/filter[unit_price]');
    expectError(await get('sort=description'), 400, 'invalid_query_parameter', '/query/sort');
    expectError(await get('expand=category'), 400, 'invalid_query_parameter', '/query/expand');
  });

  it('products:read may list and read but not write; products:write may do both', async () => {
    const reader = { Authorization: `Bearer ${(await api.integrators.createKey(rossi.integratorId, 'development', 'r', 'products:read')).key}` };
    const writer = { Authorization: `Bearer ${(await api.integrators.createKey(rossi.integratorId, 'development', 'w', 'products:write')).key}` };
    await api.http.get(base).set(reader).expect(200);
    await api.http.get(`${base}/${made['A-100']}`).set(reader).expect(200);
    const refused = await api.http.patch(`${base}/${made['A-100']}`).set(reader).send({ description: 'x' });
    expect([refused.status, refused.body.errors[0].required_permission]).toEqual([403, 'products:write']);
    await api.http.get(base).set(writer).expect(200);
    await api.http.patch(`${base}/${made['A-100']}`).set(writer).send({ description: 'Acqua naturale 0,5 l' }).expect(200);
  });
});
