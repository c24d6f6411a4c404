import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Counterpart } from './counterpart.entity.js';
import { RegistryCompany } from './registry-company.entity.js';

describe('counterparts', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let bianchi: Counterpart;
  let esposito: Counterpart;
  let ferrari: Counterpart;
  let nameless: Counterpart;
  let blankVat: Counterpart;
  let foreign: Counterpart;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const fixtures = new Fixtures(api.db, rossi.companyId);
    ferrari = await fixtures.counterpart({
      companyName: 'Ferrari Logistica S.p.A.',
      vatNumber: 'IT03456789012',
      taxNumber: '03456789012',
      city: 'Modena',
      provinceCode: 'MO',
      postalCode: '41121',
    });
    bianchi = await fixtures.counterpart();
    esposito = await fixtures.counterpart({
      companyName: 'Esposito Ristorazione S.n.c.',
      vatNumber: 'IT07654321098',
      taxNumber: 'SPSGNN80A01F839X',
      city: 'Napoli',
      provinceCode: 'NA',
      destinationCode: '0000000',
    });
    nameless = await fixtures.counterpart({
      companyName: null,
      vatNumber: null,
      taxNumber: null,
      address: null,
      city: null,
      postalCode: null,
      provinceCode: null,
      country: null,
      destinationCode: null,
    });
    blankVat = await fixtures.counterpart({ companyName: 'Gallo Studio Associato', vatNumber: '', taxNumber: 'GLLMRA70B02H501Z' });
    foreign = await new Fixtures(api.db, verdi.companyId).counterpart({ companyName: 'Bianchi Impianti S.r.l.' });
    await api.db.getRepository(RegistryCompany).save([
      {
        vatNumber: 'IT01234567890',
        taxNumber: '01234567890',
        companyName: 'Bianchi Impianti S.r.l.',
        address: 'Via Roma 12',
        city: 'Milano',
        postalCode: '20121',
        provinceCode: 'MI',
        country: 'IT',
      },
      {
        vatNumber: 'DE123456789',
        taxNumber: null,
        companyName: 'Müller GmbH',
        address: null,
        city: 'München',
        postalCode: null,
        provinceCode: null,
        country: 'DE',
      },
    ]);
    base = `/api/v1/companies/${rossi.companyId}/counterparts`;
  });

  afterAll(() => api.close());

  const list = (query = '') => api.http.get(`${base}${query ? `?${query}` : ''}`).set(rossi.auth);

  it('lists counterparts by company name, nulls last, with every member', async () => {
    const response = await list().expect(200);
    expect(ids(response)).toEqual([bianchi.id, esposito.id, ferrari.id, blankVat.id, nameless.id]);
    expect(response.body.data[0]).toEqual({
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
    });
    expect(response.body.data[4]).toEqual({
      id: nameless.id,
      company_name: null,
      address: null,
      city: null,
      postal_code: null,
      province_code: null,
      country: null,
      tax_number: null,
      vat_number: null,
      destination_code: null,
      pec_address: null,
    });
    expect(ids(response)).not.toContain(foreign.id);
  });

  it('sorts by -company_name with nulls first', async () => {
    expect(ids(await list('sort=-company_name').expect(200))).toEqual([nameless.id, blankVat.id, ferrari.id, esposito.id, bianchi.id]);
  });

  it('pages with page_size 2 across the null company name', async () => {
    for (const sort of ['company_name', '-company_name']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const response: Response = await list(`sort=${sort}&page_size=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
        seen.push(...ids(response));
        cursor = response.body.page.cursor;
      } while (cursor);
      expect(seen).toEqual(ids(await list(`sort=${sort}`)));
    }
  });

  it('filters by vat_number, tax_number and company_name', async () => {
    const get = async (query: string) => ids(await list(query).expect(200));
    expect(await get('filter[vat_number]=IT07654321098')).toEqual([esposito.id]);
    expect(await get('filter[vat_number__in]=IT07654321098,IT03456789012')).toEqual([esposito.id, ferrari.id]);
    expect(await get('filter[vat_number__notIn]=IT07654321098')).toEqual([bianchi.id, ferrari.id, blankVat.id, nameless.id]);
    expect(await get('filter[vat_number__neq]=IT07654321098')).toEqual([bianchi.id, ferrari.id, blankVat.id, nameless.id]);
    // empty: null or the empty string.
    expect(await get('filter[vat_number__empty]=true')).toEqual([blankVat.id, nameless.id]);
    expect(await get('filter[vat_number__empty]=false')).toEqual([bianchi.id, esposito.id, ferrari.id]);
    expect(await get('filter[vat_number__ilike]=IT0%25')).toEqual([bianchi.id, esposito.id, ferrari.id]);
    expect(await get('filter[vat_number__gte]=IT03456789012')).toEqual([esposito.id, ferrari.id]);
    expect(await get('filter[tax_number]=SPSGNN80A01F839X')).toEqual([esposito.id]);
    expect(await get('filter[tax_number__ilike]=spsg')).toEqual([esposito.id]);
    expect(await get('filter[tax_number__lt]=1')).toEqual([bianchi.id, ferrari.id]);
    expect(await get('filter[company_name__ilike]=s.r.l')).toEqual([bianchi.id]);
    expect(await get('filter[company_name__ilike]=s.p.a.')).toEqual([ferrari.id]);
    expect(await get('filter[company_name__empty]=true')).toEqual([nameless.id]);
    expect(await get('filter[company_name__gt]=E&filter[company_name__lt]=G')).toEqual([esposito.id, ferrari.id]);
    expect(await get('filter[company_name]=Bianchi Impianti S.r.l.')).toEqual([bianchi.id]);
    expectError(await list('filter[city]=Milano'), 400, 'invalid_query_parameter', '/query/filter[city]');
    expectError(await list('sort=city'), 400, 'invalid_query_parameter', '/query/sort');
  });

  it("reads one counterpart; 404 unknown, 403 another company's", async () => {
    expect((await api.http.get(`${base}/${esposito.id}`).set(rossi.auth).expect(200)).body).toEqual({
      id: esposito.id,
      company_name: 'Esposito Ristorazione S.n.c.',
      address: 'Via Roma 12',
      city: 'Napoli',
      postal_code: '20121',
      province_code: 'NA',
      country: 'IT',
      tax_number: 'SPSGNN80A01F839X',
      vat_number: 'IT07654321098',
      destination_code: '0000000',
      pec_address: null,
    });
    expectError(await api.http.get(`${base}/2b1f6c1e-1111-4000-8000-000000000000`).set(rossi.auth), 404, 'not_found', undefined, 'Counterpart was not found.');
    expectError(await api.http.get(`${base}/${foreign.id}`).set(rossi.auth), 403, 'forbidden');
  });

  describe('GET /counterparts/search', () => {
    const search = (query: string) => api.http.get(`/api/v1/counterparts/search?${query}`).set(rossi.auth);
    const bianchiResult = {
      address: 'Via Roma 12',
      city: 'Milano',
      company_name: 'Bianchi Impianti S.r.l.',
      country: 'IT',
      postal_code: '20121',
      province_code: 'MI',
      tax_number: '01234567890',
      vat_number: 'IT01234567890',
    };

    it('finds a company by VAT number in the registry', async () => {
      expect((await search('vat_number=IT01234567890').expect(200)).body).toEqual(bianchiResult);
      expect((await search('vat_number=DE123456789').expect(200)).body).toEqual({
        address: null,
        city: 'München',
        company_name: 'Müller GmbH',
        country: 'DE',
        postal_code: null,
        province_code: null,
        tax_number: null,
        vat_number: 'DE123456789',
      });
    });

    it('normalises the VAT number: eleven digits are Italian, spaces and case do not matter', async () => {
      expect((await search('vat_number=01234567890').expect(200)).body).toEqual(bianchiResult);
      expect((await search('vat_number=it%2001234567890').expect(200)).body).toEqual(bianchiResult);
      expect((await search('vat_number=IT.012.345.678-90').expect(200)).body).toEqual(bianchiResult);
    });

    it('answers 404 with a pointer for an unknown VAT number', async () => {
      expectError(await search('vat_number=IT99999999999'), 404, 'not_found', '/query/vat_number', 'No company with VAT number IT99999999999 is known.');
      expectError(await search('vat_number=99999999999'), 404, 'not_found', '/query/vat_number', 'No company with VAT number IT99999999999 is known.');
    });

    it('answers 400 when vat_number is missing, empty, repeated, malformed or joined by unknown parameters', async () => {
      expectError(await api.http.get('/api/v1/counterparts/search').set(rossi.auth), 400, 'bad_request', '/query/vat_number');
      expectError(await search('vat_number='), 400, 'bad_request', '/query/vat_number');
      expectError(await search('vat_number=IT01234567890&vat_number=DE123456789'), 400, 'invalid_query_parameter', '/query/vat_number');
      expectError(await search(`vat_number=${encodeURIComponent("' OR 1=1 --")}`), 400, 'invalid_query_parameter', '/query/vat_number');
      expectError(await search('vat_number=IT01234567890&country=IT'), 400, 'invalid_query_parameter', '/query/country');
    });

    it('needs an API key but no company', async () => {
      expectError(await api.http.get('/api/v1/counterparts/search?vat_number=IT01234567890'), 401, 'unauthorized');
      expect((await api.http.get('/api/v1/counterparts/search?vat_number=IT01234567890').set(verdi.auth).expect(200)).body).toEqual(bianchiResult);
    });
  });
});
