import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { Sectional } from './sectional.entity.js';
import { SectionalsService } from './sectionals.service.js';

describe('sectionals', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let service: SectionalsService;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_POINTS: '100000' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    base = `/api/v1/companies/${rossi.companyId}/sectionals`;
    service = api.app.get(SectionalsService);
  });

  afterAll(() => api.close());

  const create = (body: unknown, tenant = rossi) =>
    api.http
      .post(`/api/v1/companies/${tenant.companyId}/sectionals`)
      .set(tenant.auth)
      .send(body as object);
  const patch = (id: string, body: unknown) =>
    api.http
      .patch(`${base}/${id}`)
      .set(rossi.auth)
      .send(body as object);
  /** Takes `count` numbers, each in a transaction of its own, all at once. */
  const take = (id: string, count: number) =>
    Promise.all(Array.from({ length: count }, () => api.db.transaction((manager) => service.takeNumber(manager, rossi.companyId, id, '/sectional_id'))));

  it('creates a sectional, reads it, and shows the format of its next number', async () => {
    const created = await create({ year: 2026, prefix: 'FV/', suffix: '/2026', minimum_digits: 4 }).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      year: 2026,
      prefix: 'FV/',
      suffix: '/2026',
      minimum_digits: 4,
      last_progressive: 0,
      next_number: 'FV/0001/2026',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.http.get(`${base}/${created.body.id}`).set(rossi.auth).expect(200)).body).toEqual(created.body);
    const bare = await create({ year: 2026, minimum_digits: 1 }).expect(201);
    expect(bare.body).toMatchObject({ prefix: '', suffix: '', next_number: '1' });
  });

  it('lists the sectionals latest year first, filters by year and prefix', async () => {
    const old = await create({ year: 2024, prefix: 'L', minimum_digits: 2 }).expect(201);
    const list = await api.http.get(base).set(rossi.auth).expect(200);
    expect(list.body.data.map((s: { year: number }) => s.year)).toEqual([2026, 2026, 2024]);
    expect(ids(await api.http.get(`${base}?filter[year]=2024`).set(rossi.auth).expect(200))).toEqual([old.body.id]);
    expect(ids(await api.http.get(`${base}?filter[prefix]=L`).set(rossi.auth).expect(200))).toEqual([old.body.id]);
    expect(ids(await api.http.get(`${base}?sort=created_at&filter[year__lt]=2026`).set(rossi.auth).expect(200))).toEqual([old.body.id]);
    expectError(await api.http.get(`${base}?sort=prefix`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/sort');
  });

  it('refuses bad input with a pointer: 400 for missing or mistyped members, 422 for values out of range', async () => {
    const ok = { year: 2030, minimum_digits: 3 };
    expectError(await create({ minimum_digits: 3 }), 400, 'bad_request', '/year', 'year is required');
    expectError(await create({ year: 2030 }), 400, 'bad_request', '/minimum_digits', 'minimum_digits is required');
    expectError(await create({ ...ok, year: '2030' }), 400, 'bad_request', '/year', 'year must be an integer');
    expectError(await create({ ...ok, year: 2030.5 }), 400, 'bad_request', '/year');
    expectError(await create({ ...ok, minimum_digits: null }), 400, 'bad_request', '/minimum_digits');
    expectError(await create({ ...ok, prefix: 7 }), 400, 'bad_request', '/prefix', 'prefix must be a string');
    expectError(await create({ ...ok, prefix: null }), 400, 'bad_request', '/prefix');
    expectError(await create({ ...ok, colour: 'red' }), 400, 'bad_request', '/colour');
    expectError(await create({ ...ok, year: 1999 }), 422, 'unprocessable_entity', '/year', 'year must be between 2000 and 2999');
    expectError(await create({ ...ok, year: 3000 }), 422, 'unprocessable_entity', '/year');
    expectError(await create({ ...ok, minimum_digits: 0 }), 422, 'unprocessable_entity', '/minimum_digits', 'minimum_digits must be between 1 and 8');
    expectError(await create({ ...ok, minimum_digits: 9 }), 422, 'unprocessable_entity', '/minimum_digits');
    expectError(await create({ ...ok, suffix: '/€' }), 422, 'unprocessable_entity', '/suffix', 'suffix may hold only printable basic-Latin (ASCII) characters');
    expectError(await create({ ...ok, prefix: 'ABCDEFGHIJKLM' }), 422, 'unprocessable_entity', '/prefix', 'prefix must be at most 12 characters long');
    expectError(
      await create({ ...ok, prefix: 'ABCDEFGH', suffix: '/2030' }),
      422,
      'unprocessable_entity',
      '/suffix',
      'prefix and suffix together must be at most 12 characters long',
    );
    expect((await api.db.getRepository(Sectional).findBy({ companyId: rossi.companyId, year: 2030 })).length).toBe(0);
  });

  it('refuses a second sectional with the same year, prefix and suffix (409 sectional_exists naming it), also under concurrency', async () => {
    const first = await create({ year: 2027, prefix: 'A/', minimum_digits: 3 }).expect(201);
    expectError(await create({ year: 2027, prefix: 'A/', minimum_digits: 5 }), 409, 'sectional_exists', undefined, new RegExp(first.body.id));
    // Same affixes in another year, or another company with the same series: fine.
    await create({ year: 2028, prefix: 'A/', minimum_digits: 3 }).expect(201);
    await create({ year: 2027, prefix: 'A/', minimum_digits: 3 }, verdi).expect(201);
    const racing = await Promise.all(Array.from({ length: 8 }, () => create({ year: 2029, suffix: '/R', minimum_digits: 2 })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of racing.filter((r) => r.status === 409)) expectError(refused, 409, 'sectional_exists');
    // An update onto an existing series is the same 409.
    const other = await create({ year: 2027, prefix: 'B/', minimum_digits: 3 }).expect(201);
    expectError(await patch(other.body.id, { prefix: 'A/' }), 409, 'sectional_exists', undefined, new RegExp(first.body.id));
  });

  it('updates any member while no number was taken; an empty body is a 400', async () => {
    const sectional = await create({ year: 2031, prefix: 'X', minimum_digits: 3 }).expect(201);
    const updated = await patch(sectional.body.id, { year: 2032, prefix: 'NC/', suffix: '-B', minimum_digits: 5 }).expect(200);
    expect(updated.body).toMatchObject({ year: 2032, prefix: 'NC/', suffix: '-B', minimum_digits: 5, next_number: 'NC/00001-B' });
    expect((await api.http.get(`${base}/${sectional.body.id}`).set(rossi.auth).expect(200)).body).toEqual(updated.body);
    expectError(await patch(sectional.body.id, {}), 400, 'bad_request', '', 'The body names no member to update.');
    expectError(await patch(sectional.body.id, { minimum_digits: 12 }), 422, 'unprocessable_entity', '/minimum_digits');
    expectError(await patch(sectional.body.id, { year: null }), 400, 'bad_request', '/year');
    expectError(await patch(sectional.body.id, { prefix: 'ABCDEFGHIJK' }), 422, 'unprocessable_entity', '/suffix');
  });

  it('hands out numbers 1..50 to 50 concurrent transactions: no gaps, no duplicates', async () => {
    const sectional = await create({ year: 2033, prefix: 'FV/', suffix: '/2033', minimum_digits: 3 }).expect(201);
    const taken = await take(sectional.body.id, 50);
    expect(taken.map((t) => t.progressive).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(taken.map((t) => t.number)).size).toBe(50);
    for (const t of taken)
      expect(t).toEqual({ sectionalId: sectional.body.id, progressive: t.progressive, number: `FV/${String(t.progressive).padStart(3, '0')}/2033` });
    const after = await api.http.get(`${base}/${sectional.body.id}`).set(rossi.auth).expect(200);
    expect(after.body).toMatchObject({ last_progressive: 50, next_number: 'FV/051/2033' });
  });

  it('gives a rolled-back number back: a failed create leaves no gap', async () => {
    const sectional = await create({ year: 2034, minimum_digits: 1 }).expect(201);
    await take(sectional.body.id, 2);
    const failure = new Error('the document insert failed');
    await expect(
      api.db.transaction(async (manager) => {
        expect((await service.takeNumber(manager, rossi.companyId, sectional.body.id, '/sectional_id')).progressive).toBe(3);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await take(sectional.body.id, 1))[0].progressive).toBe(3);
  });

  it('keeps year, prefix and suffix once a number was taken (422 sectional_in_use); minimum_digits may still change', async () => {
    const sectional = await create({ year: 2035, prefix: 'FV/', minimum_digits: 2 }).expect(201);
    await take(sectional.body.id, 1);
    expectError(await patch(sectional.body.id, { prefix: 'FA/' }), 422, 'sectional_in_use', '/prefix', /issued numbers up to FV\/01/);
    expectError(await patch(sectional.body.id, { suffix: '/35' }), 422, 'sectional_in_use', '/suffix');
    expectError(await patch(sectional.body.id, { year: 2036, minimum_digits: 4 }), 422, 'sectional_in_use', '/year');
    // The same values are no change.
    await patch(sectional.body.id, { year: 2035, prefix: 'FV/', suffix: '' }).expect(200);
    const padded = await patch(sectional.body.id, { minimum_digits: 4 }).expect(200);
    expect(padded.body).toMatchObject({ minimum_digits: 4, last_progressive: 1, next_number: 'FV/0002' });
  });

  it("answers 403 for another company's sectional and 404 for an unknown or malformed id, changing nothing", async () => {
    const foreign = await create({ year: 2026, prefix: 'V', minimum_digits: 3 }, verdi).expect(201);
    expectError(await api.http.get(`${base}/${foreign.body.id}`).set(rossi.auth), 403, 'forbidden');
    expectError(await patch(foreign.body.id, { minimum_digits: 5 }), 403, 'forbidden');
    expectError(await api.http.get(`${base}/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f`).set(rossi.auth), 404, 'not_found', undefined, 'Sectional was not found.');
    expectError(await patch('not-a-uuid', { minimum_digits: 5 }), 404, 'not_found');
    await expect(api.db.transaction((manager) => service.takeNumber(manager, rossi.companyId, foreign.body.id, '/sectional_id'))).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      api.db.transaction((manager) => service.takeNumber(manager, rossi.companyId, '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', '/sectional_id')),
    ).rejects.toMatchObject({ status: 404 });
    expect(await api.db.getRepository(Sectional).findOneByOrFail({ id: foreign.body.id })).toMatchObject({ minimumDigits: 3, lastProgressive: 0 });
  });
});
