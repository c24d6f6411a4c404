import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { Document } from '../documents/document.entity.js';
import { invoiceToXml, parseInvoiceXml } from '../invoices/fatturapa/index.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { StoredInvoice } from '../invoices/invoice.entity.js';
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
  /** Takes `count` numbers for documents of the sectional's year, each in a transaction of its own, all at once. */
  const take = async (id: string, count: number) => {
    const { year } = await api.db.getRepository(Sectional).findOneByOrFail({ id });
    return Promise.all(
      Array.from({ length: count }, () => api.db.transaction((manager) => service.takeNumber(manager, rossi.companyId, id, year, '/query/sectional_id'))),
    );
  };

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
    // A year is a whole number: anything else names the parameter, like every other filter value (never the
    // database's generic refusal).
    for (const [param, value] of [
      ['filter[year]', '2026.5'],
      ['filter[year]', 'abc'],
      ['filter[year__gte]', '-1'],
      ['filter[year__in]', '2026,20x6'],
      ['filter[year]', '99999999999'],
    ]) {
      const response = await api.http.get(`${base}?${param}=${value}`).set(rossi.auth);
      expectError(response, 400, 'invalid_query_parameter', `/query/${param}`, /^year must be a whole number such as 2026, got "/);
    }
  });

  it('pages through the sectionals by year, one at a time, with the cursors it gives', async () => {
    const all = ids(await api.http.get(base).set(rossi.auth).expect(200));
    for (const sort of ['-year', 'year']) {
      const seen: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page: Response = await api.http
          .get(`${base}?page_size=1&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`)
          .set(rossi.auth)
          .expect(200);
        seen.push(...ids(page));
        cursor = page.body.page.cursor;
      }
      expect([sort, [...seen].sort()]).toEqual([sort, [...all].sort()]);
    }
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
      expect(t).toMatchObject({
        sectionalId: sectional.body.id,
        progressive: t.progressive,
        number: `FV/${String(t.progressive).padStart(3, '0')}/2033`,
        sectional: { lastProgressive: t.progressive },
      });
    const after = await api.http.get(`${base}/${sectional.body.id}`).set(rossi.auth).expect(200);
    expect(after.body).toMatchObject({ last_progressive: 50, next_number: 'FV/051/2033' });
  });

  it('gives a rolled-back number back: a failed create leaves no gap', async () => {
    const sectional = await create({ year: 2034, minimum_digits: 1 }).expect(201);
    await take(sectional.body.id, 2);
    const failure = new Error('the document insert failed');
    await expect(
      api.db.transaction(async (manager) => {
        expect((await service.takeNumber(manager, rossi.companyId, sectional.body.id, 2034, '/query/sectional_id')).progressive).toBe(3);
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
    await expect(
      api.db.transaction((manager) => service.takeNumber(manager, rossi.companyId, foreign.body.id, 2026, '/query/sectional_id')),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      api.db.transaction((manager) => service.takeNumber(manager, rossi.companyId, '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', 2026, '/query/sectional_id')),
    ).rejects.toMatchObject({ status: 404 });
    expect(await api.db.getRepository(Sectional).findOneByOrFail({ id: foreign.body.id })).toMatchObject({ minimumDigits: 3, lastProgressive: 0 });
  });

  describe('numbering e-invoices', () => {
    let tenant: Tenant;
    let other: Tenant;
    beforeAll(async () => {
      tenant = await createTenant(api, 'Numerate S.r.l.');
      other = await createTenant(api, 'Altre Numerazioni S.r.l.');
    });

    const sectionalsOf = (t: Tenant) => `/api/v1/companies/${t.companyId}/sectionals`;
    const newSectional = async (body: object, t = tenant): Promise<string> =>
      (
        await api.http
          .post(sectionalsOf(t))
          .set(t.auth)
          .send({ minimum_digits: 1, ...body })
          .expect(201)
      ).body.id;
    /** The example invoice of the seller, without a number of its own (or with the one given). */
    const invoice = (options: { number?: string; date?: string; type?: string } = {}, t = tenant) => {
      const value = exampleInvoice({ sellerVat: t.vatNumber.slice(2), date: options.date }) as unknown as {
        fattura_elettronica_body: Array<{ dati_generali: { dati_generali_documento: Record<string, unknown> } }>;
      };
      const general = value.fattura_elettronica_body[0].dati_generali.dati_generali_documento;
      if (options.number === undefined) delete general.numero;
      else general.numero = options.number;
      if (options.type) general.tipo_documento = options.type;
      return value;
    };
    const createInvoice = (body: unknown, query: string, t = tenant) =>
      api.http
        .post(`/api/v1/companies/${t.companyId}/documents/invoice${query}`)
        .set(t.auth)
        .send(body as object);
    const patchSectional = (id: string, body: object) =>
      api.http
        .patch(`${sectionalsOf(tenant)}/${id}`)
        .set(tenant.auth)
        .send(body);
    const lastProgressive = async (id: string) => (await api.db.getRepository(Sectional).findOneByOrFail({ id })).lastProgressive;
    const documentsOf = (id: string) => api.db.getRepository(Document).find({ where: { sectionalId: id }, order: { progressive: 'ASC' } });

    it('takes the next number for a JSON invoice without one: in the stored XML, the number, sectional_id and progressive', async () => {
      const id = await newSectional({ year: 2026, prefix: 'FV/', suffix: '/2026', minimum_digits: 4 });
      const first = await createInvoice(invoice(), `?sectional_id=${id}`).expect(201);
      const document = first.body.data[0];
      expect(document).toMatchObject({ number: 'FV/0001/2026', sectional_id: id, progressive: 1, status: 'DRAFT' });
      // The create answer expands every member, the sectional included, as it is after the number was taken.
      expect(document.sectional).toMatchObject({ id, year: 2026, last_progressive: 1, next_number: 'FV/0002/2026' });
      const stored = await api.db.getRepository(StoredInvoice).findOneByOrFail({ documentId: document.id });
      expect(stored.xml.toString('utf8')).toContain('<Numero>FV/0001/2026</Numero>');
      expect(parseInvoiceXml(stored.xml).problems).toEqual([]);
      expect(stored.duplicateKey).toContain('/FV/0001/2026');
      const read = await api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${document.id}/invoice`).set(tenant.auth).expect(200);
      expect(read.body.fattura_elettronica_body[0].dati_generali.dati_generali_documento.numero).toBe('FV/0001/2026');
      // An empty numero is no number either.
      const second = await createInvoice(invoice({ number: '' }), `?sectional_id=${id.toUpperCase()}`).expect(201);
      expect(second.body.data[0]).toMatchObject({ number: 'FV/0002/2026', sectional_id: id, progressive: 2 });
      // Read back: sectional only when expanded, its id always.
      const documentUrl = `/api/v1/companies/${tenant.companyId}/documents/${document.id}`;
      expect((await api.http.get(documentUrl).set(tenant.auth).expect(200)).body).toMatchObject({ sectional_id: id, sectional: null, progressive: 1 });
      const expanded = await api.http.get(`${documentUrl}?expand=sectional`).set(tenant.auth).expect(200);
      expect(expanded.body.sectional).toMatchObject({ id, prefix: 'FV/', last_progressive: 2 });
      expectError(
        await api.http.get(`/api/v1/companies/${tenant.companyId}/documents?expand=sectional`).set(tenant.auth),
        400,
        'invalid_query_parameter',
        '/query/expand',
      );
      // An invoice with its own number has neither.
      const own = await createInvoice(invoice({ number: 'A-1' }), '').expect(201);
      expect(own.body.data[0]).toMatchObject({ number: 'A-1', sectional_id: null, sectional: null, progressive: null });
    });

    it('gives 50 concurrent invoices the numbers 1 to 50, each once', async () => {
      const id = await newSectional({ year: 2026, prefix: 'P', minimum_digits: 2 });
      const created = await Promise.all(Array.from({ length: 50 }, () => createInvoice(invoice(), `?sectional_id=${id}`)));
      expect(created.map((r) => r.status)).toEqual(Array(50).fill(201));
      const documents = created.map((r) => r.body.data[0] as { number: string; progressive: number });
      expect(documents.map((d) => d.progressive).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      for (const d of documents) expect(d.number).toBe(`P${String(d.progressive).padStart(2, '0')}`);
      expect(await lastProgressive(id)).toBe(50);
      expect((await documentsOf(id)).map((d) => d.progressive)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('gives the number back when the create fails after taking it: no gap', async () => {
      const id = await newSectional({ year: 2026, prefix: 'D-' });
      // An invoice numbered by hand holds what will be the sectional's second number.
      await createInvoice(invoice({ number: 'D-2' }), '').expect(201);
      await createInvoice(invoice(), `?sectional_id=${id}`).expect(201);
      const duplicate = await createInvoice(invoice(), `?sectional_id=${id}`);
      expectError(
        duplicate,
        422,
        'sdi_check_failed',
        '/query/sectional_id',
        /^00404: The sectional's next number is D-2, and the company already has invoice D-2/,
      );
      expect(await lastProgressive(id)).toBe(1);
      // The number was not used: the next document of the series, a credit note (not a duplicate), takes it.
      const credit = await createInvoice(invoice({ type: 'TD04' }), `?sectional_id=${id}`).expect(201);
      expect(credit.body.data[0]).toMatchObject({ number: 'D-2', progressive: 2, type: 'CREDIT_NOTE' });
      // Nor does a request refused before the number is taken (a schema problem) touch the counter.
      const broken = invoice();
      broken.fattura_elettronica_body[0].dati_generali.dati_generali_documento.data = '2026-02-30';
      expect((await createInvoice(broken, `?sectional_id=${id}`)).status).toBe(422);
      expect(await lastProgressive(id)).toBe(2);
      expect((await documentsOf(id)).map((d) => [d.progressive, d.number])).toEqual([
        [1, 'D-1'],
        [2, 'D-2'],
      ]);
    });

    it("refuses a sectional of another year than the invoice's date (422 sectional_year_mismatch), taking nothing", async () => {
      const id = await newSectional({ year: 2025, prefix: 'Y-' });
      expectError(
        await createInvoice(invoice({ date: '2026-03-02' }), `?sectional_id=${id}`),
        422,
        'sectional_year_mismatch',
        '/query/sectional_id',
        'The sectional numbers the year 2025 and the document is dated 2026: number it from a sectional of 2026.',
      );
      expect(await lastProgressive(id)).toBe(0);
      const created = await createInvoice(invoice({ date: '2025-12-30' }), `?sectional_id=${id}`).expect(201);
      expect(created.body.data[0]).toMatchObject({ number: 'Y-1', creation_date: '2025-12-30' });
    });

    it('refuses a number of its own with sectional_id: an XML file, or a JSON numero (422 invoice_number_given)', async () => {
      const id = await newSectional({ year: 2026, prefix: 'X-' });
      const xml = invoiceToXml(exampleInvoice({ sellerVat: tenant.vatNumber.slice(2) }));
      const fromXml = await api.http
        .post(`/api/v1/companies/${tenant.companyId}/documents/invoice?sectional_id=${id}`)
        .set(tenant.auth)
        .set('Content-Type', 'application/xml')
        .send(xml);
      expectError(fromXml, 422, 'invoice_number_given', '/query/sectional_id', /^sectional_id numbers JSON invoices only/);
      expectError(
        await createInvoice(invoice({ number: 'X-9' }), `?sectional_id=${id}`),
        422,
        'invoice_number_given',
        '/fattura_elettronica_body/0/dati_generali/dati_generali_documento/numero',
        /has the number "X-9"/,
      );
      expect(await lastProgressive(id)).toBe(0);
    });

    it("answers another company's sectional with 403, an unknown one with 404, a malformed id with 400, taking nothing", async () => {
      const foreign = await newSectional({ year: 2026, prefix: 'F-' }, other);
      expectError(await createInvoice(invoice(), `?sectional_id=${foreign}`), 403, 'forbidden', '/query/sectional_id');
      expectError(
        await createInvoice(invoice(), '?sectional_id=7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'),
        404,
        'not_found',
        '/query/sectional_id',
        'Sectional was not found.',
      );
      expectError(await createInvoice(invoice(), '?sectional_id=not-a-uuid'), 400, 'invalid_query_parameter', '/query/sectional_id');
      expectError(await createInvoice(invoice(), `?sectional_id=${foreign}&sectional_id=${foreign}`), 400, 'invalid_query_parameter', '/query/sectional_id');
      expect(await lastProgressive(foreign)).toBe(0);
      // The other company numbers its own invoices from it.
      await createInvoice(invoice({}, other), `?sectional_id=${foreign}`, other).expect(201);
      expect(await lastProgressive(foreign)).toBe(1);
    });

    it("deletes only the series' last document, giving its number back (409 sectional_gap otherwise); sectional_in_use follows", async () => {
      const id = await newSectional({ year: 2026, prefix: 'G-' });
      const [one, two] = [
        (await createInvoice(invoice(), `?sectional_id=${id}`).expect(201)).body.data[0],
        (await createInvoice(invoice(), `?sectional_id=${id}`).expect(201)).body.data[0],
      ];
      const remove = (documentId: string) => api.http.delete(`/api/v1/companies/${tenant.companyId}/documents/${documentId}`).set(tenant.auth);
      expectError(
        await remove(one.id),
        409,
        'sectional_gap',
        undefined,
        "Document G-1 has number 1 of its sectional, which has issued numbers up to G-2: deleting it would leave a gap in the series. Only the document with the series' last number can be deleted.",
      );
      expectError(await patchSectional(id, { prefix: 'H-' }), 422, 'sectional_in_use', '/prefix');
      await remove(two.id).expect(204);
      expect(await lastProgressive(id)).toBe(1);
      const again = await createInvoice(invoice(), `?sectional_id=${id}`).expect(201);
      expect(again.body.data[0]).toMatchObject({ number: 'G-2', progressive: 2 });
      await remove(again.body.data[0].id).expect(204);
      await remove(one.id).expect(204);
      // Nothing carries its numbers any more: the series may change again.
      expect(await lastProgressive(id)).toBe(0);
      await patchSectional(id, { prefix: 'H-' }).expect(200);
      // An issued invoice stays, whatever its number.
      const issued = (await createInvoice(invoice(), `?sectional_id=${id}&issue=true`).expect(201)).body.data[0];
      expectError(await remove(issued.id), 409, 'document_sent_to_sdi');
      expect(await lastProgressive(id)).toBe(1);
    });
  });
});
