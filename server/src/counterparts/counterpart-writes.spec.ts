import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { oddEvenCheckLetter, partitaIvaCheckDigit } from '../common/validation/italian-identifiers.js';
import type { Counterpart } from './counterpart.entity.js';

/** A partita IVA with a correct check digit, from its first ten digits. */
const piva = (firstTen: string) => firstTen + partitaIvaCheckDigit(firstTen);
/** The same with a wrong check digit. */
const badPiva = (firstTen: string) => firstTen + ((partitaIvaCheckDigit(firstTen) + 1) % 10);
/** A person's codice fiscale with its check character. */
const cf = (first15: string) => first15 + oddEvenCheckLetter(first15);

describe('counterparts: create and update', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let base: string;
  let fixtures: Fixtures;
  let foreign: Counterpart;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    foreign = await new Fixtures(api.db, verdi.companyId).counterpart({ companyName: 'Verdi Fornitore', vatNumber: `IT${piva('0555555555')}` });
    base = `/api/v1/companies/${rossi.companyId}/counterparts`;
  });

  afterAll(() => api.close());

  const post = (body: object) => api.http.post(base).set(rossi.auth).send(body);
  const patch = (id: string, body: object) => api.http.patch(`${base}/${id}`).set(rossi.auth).send(body);
  const unknown = '2b1f6c1e-1111-4000-8000-000000000000';

  it('creates a counterpart with every member, identifiers in their stored form (201)', async () => {
    const vat = piva('0123456789');
    const response = await post({
      company_name: 'Bianchi Impianti S.r.l.',
      address: 'Via Roma 12',
      city: 'Milano',
      postal_code: '20121',
      province_code: 'MI',
      country: 'IT',
      tax_number: vat,
      vat_number: ` ${vat.slice(0, 5)} ${vat.slice(5)}`,
      destination_code: 'm5uxcr1',
      pec_address: 'bianchi.impianti@pec.it',
    }).expect(201);
    const expected = {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      company_name: 'Bianchi Impianti S.r.l.',
      address: 'Via Roma 12',
      city: 'Milano',
      postal_code: '20121',
      province_code: 'MI',
      country: 'IT',
      tax_number: vat,
      vat_number: `IT${vat}`,
      destination_code: 'M5UXCR1',
      pec_address: 'bianchi.impianti@pec.it',
    };
    expect(response.body).toEqual(expected);
    expect((await api.http.get(`${base}/${response.body.id}`).set(rossi.auth).expect(200)).body).toEqual(response.body);
    expect((await api.http.get(`${base}?filter[vat_number]=IT${vat}`).set(rossi.auth).expect(200)).body.data).toEqual([response.body]);
  });

  it('creates one with only a company name; a person with a codice fiscale; a public administration with a 6-character code', async () => {
    const minimal = await post({ company_name: 'Mario Rossi' }).expect(201);
    expect(minimal.body).toEqual({
      id: expect.any(String),
      company_name: 'Mario Rossi',
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
    const person = cf('RSSMRA80A01H501');
    expect((await post({ company_name: 'Mario Rossi', country: 'IT', tax_number: person.toLowerCase() }).expect(201)).body.tax_number).toBe(person);
    const pa = await post({ company_name: 'Comune di Bologna', country: 'IT', vat_number: piva('0123456700'), destination_code: 'UFABCD' }).expect(201);
    expect(pa.body).toEqual(expect.objectContaining({ destination_code: 'UFABCD', vat_number: `IT${piva('0123456700')}` }));
    // Abroad: the country's prefix, and a tax number without Italian checks.
    const german = await post({
      company_name: 'Müller GmbH',
      country: 'DE',
      vat_number: '123456789',
      tax_number: '12345678901',
      destination_code: 'XXXXXXX',
    }).expect(201);
    expect(german.body).toEqual(expect.objectContaining({ vat_number: 'DE123456789', tax_number: '12345678901', postal_code: null }));
    expect((await post({ company_name: 'Papadopoulos AE', country: 'GR', vat_number: '094014201' }).expect(201)).body.vat_number).toBe('EL094014201');
  });

  it('refuses malformed members with 400 and bad values with 422, each at its pointer', async () => {
    expectError(await post({}), 400, 'bad_request', '/company_name', 'company_name is required');
    expectError(await post({ company_name: null }), 400, 'bad_request', '/company_name');
    expectError(await post({ company_name: 42 }), 400, 'bad_request', '/company_name', 'company_name must be a string');
    expectError(await post({ company_name: 'X', vat_number: 1234 }), 400, 'bad_request', '/vat_number');
    expectError(await post({ company_name: 'X', pec: 'a@b.it' }), 400, 'bad_request', '/pec');
    const value = async (body: object, pointer: string, detail?: string | RegExp) =>
      expectError(await post({ company_name: 'Valore', ...body }), 422, 'unprocessable_entity', pointer, detail);
    await value({ company_name: '  ' }, '/company_name', 'company_name must not be empty or blank');
    await value({ company_name: 'x'.repeat(81) }, '/company_name', 'company_name must be at most 80 characters long');
    await value({ address: 'x'.repeat(61) }, '/address', 'address must be at most 60 characters long');
    await value({ city: '' }, '/city');
    await value({ country: 'it' }, '/country');
    await value({ country: 'XX' }, '/country', 'country must be an ISO 3166-1 alpha-2 code in capitals, such as IT');
    await value({ province_code: 'Milano' }, '/province_code');
    await value({ postal_code: '20121!' }, '/postal_code');
    await value({ country: 'IT', postal_code: '2012' }, '/postal_code', 'An Italian postal_code (CAP) has five digits.');
    await value({ destination_code: 'ABC' }, '/destination_code', 'destination_code must be 7 letters or digits (6 for a public administration)');
    await value({ destination_code: 'ABCDEFGH' }, '/destination_code');
    await value({ pec_address: 'not-an-address' }, '/pec_address', 'pec_address must be an e-mail address');
    await value({ vat_number: badPiva('0123456789') }, '/vat_number', /is not a valid Italian VAT number/);
    await value({ vat_number: `IT${badPiva('0123456789')}`, country: 'DE' }, '/vat_number', /is not a valid Italian VAT number/);
    await value({ vat_number: '12' }, '/vat_number', /is not a valid Italian VAT number/);
    await value({ vat_number: '!!' }, '/vat_number', /must be a VAT number such as IT01234567890/);
    await value({ country: 'IT', tax_number: badPiva('0123456789') }, '/tax_number', /check digit/);
    await value({ country: 'IT', tax_number: 'RSSMRA80A01H501A' }, '/tax_number', /not a valid codice fiscale/);
    await value(
      { country: 'IT', tax_number: 'ABC123' },
      '/tax_number',
      'An Italian tax_number is a codice fiscale: 16 characters for a person, 11 digits for a company.',
    );
    await value({ country: 'DE', tax_number: 'x'.repeat(29) }, '/tax_number', 'tax_number must be 1 to 28 letters or digits.');
    // Every broken rule at once.
    const several = await post({ company_name: 'Molti errori', country: 'IT', vat_number: badPiva('0123456789'), tax_number: 'ABC', postal_code: '1' });
    expect(several.status).toBe(422);
    expect(several.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(['/vat_number', '/tax_number', '/postal_code']);
    expect(await api.db.query(`SELECT 1 FROM counterparts WHERE company_name IN ('Valore', 'Molti errori', 'X')`)).toEqual([]);
  });

  it('refuses a VAT number another counterpart of the company has (409 counterpart_exists), whatever its spelling', async () => {
    const vat = `IT${piva('0987654321')}`;
    const first = await post({ company_name: 'Ferrari Logistica S.p.A.', vat_number: vat }).expect(201);
    for (const spelling of [vat, vat.slice(2), `it ${vat.slice(2)}`]) {
      expectError(
        await post({ company_name: 'Ferrari Logistica', vat_number: spelling }),
        409,
        'counterpart_exists',
        '/vat_number',
        `Counterpart ${first.body.id} of this company already has the VAT number ${vat}.`,
      );
    }
    // Another company may have the same counterpart.
    await api.http.post(`/api/v1/companies/${verdi.companyId}/counterparts`).set(verdi.auth).send({ company_name: 'Ferrari', vat_number: vat }).expect(201);
    // Counterparts without a VAT number are not duplicates of each other.
    await post({ company_name: 'Senza partita IVA' }).expect(201);
    await post({ company_name: 'Senza partita IVA' }).expect(201);
  });

  it('creates exactly one counterpart when ten requests race for one VAT number', async () => {
    const vat = piva('0111111111');
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => post({ company_name: `Gara ${i}`, vat_number: vat })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const refused of responses.filter((r) => r.status === 409)) expectError(refused, 409, 'counterpart_exists', '/vat_number');
    expect((await api.db.query('SELECT count(*)::int AS n FROM counterparts WHERE vat_number = $1', [`IT${vat}`]))[0].n).toBe(1);
  });

  it('updates the members present, clears those sent as null, and re-checks what a new country governs', async () => {
    const counterpart = await fixtures.counterpart({
      companyName: 'Esposito S.n.c.',
      vatNumber: `IT${piva('0222222222')}`,
      taxNumber: 'ESTERO123',
      country: 'FR',
    });
    const document = await fixtures.document({ counterpartId: counterpart.id });
    const events = await api.db.getRepository(DomainEvent).count();
    const updated = await patch(counterpart.id, { city: 'Napoli', address: null, pec_address: 'esposito@pec.it' }).expect(200);
    expect(updated.body).toEqual(
      expect.objectContaining({
        id: counterpart.id,
        company_name: 'Esposito S.n.c.',
        city: 'Napoli',
        address: null,
        pec_address: 'esposito@pec.it',
        country: 'FR',
      }),
    );
    const read = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${document.id}?expand=counterpart`).set(rossi.auth).expect(200);
    expect(read.body.counterpart).toEqual(updated.body);
    // Moving to Italy makes the foreign tax number invalid; nothing is changed.
    expectError(await patch(counterpart.id, { country: 'IT' }), 422, 'unprocessable_entity', '/tax_number');
    const moved = await patch(counterpart.id, { country: 'IT', tax_number: piva('0222222222'), postal_code: '80100' }).expect(200);
    expect(moved.body).toEqual(expect.objectContaining({ country: 'IT', tax_number: piva('0222222222'), city: 'Napoli' }));
    // Its own VAT number again is no conflict.
    await patch(counterpart.id, { vat_number: piva('0222222222') }).expect(200);
    expect(await api.db.getRepository(DomainEvent).count()).toBe(events);
    // Members the payload leaves alone are not judged again: a stored tax number with a wrong check digit does not
    // stop a change of city.
    const legacy = await fixtures.counterpart({ companyName: 'Dati storici', vatNumber: null, country: 'IT', taxNumber: badPiva('0123456789') });
    expect((await patch(legacy.id, { city: 'Bologna' }).expect(200)).body.tax_number).toBe(badPiva('0123456789'));
  });

  it('refuses bad updates: empty body, null name, a taken VAT number, unknown and foreign ids', async () => {
    const mine = await fixtures.counterpart({ companyName: 'Gallo', vatNumber: `IT${piva('0333333333')}` });
    const other = await fixtures.counterpart({ companyName: 'Galli', vatNumber: `IT${piva('0444444444')}` });
    expectError(await patch(mine.id, {}), 400, 'bad_request', '', 'The body names no member to update.');
    expectError(await patch(mine.id, { company_name: null }), 400, 'bad_request', '/company_name');
    expectError(await patch(mine.id, { vat_number: `IT${badPiva('0333333333')}` }), 422, 'unprocessable_entity', '/vat_number');
    expectError(await patch(mine.id, { vat_number: other.vatNumber }), 409, 'counterpart_exists', '/vat_number', new RegExp(other.id));
    expectError(await patch(unknown, { city: 'Roma' }), 404, 'not_found', undefined, 'Counterpart was not found.');
    expectError(await patch('abc', { city: 'Roma' }), 404, 'not_found');
    expectError(await patch(foreign.id, { city: 'Roma' }), 403, 'forbidden');
    expectError(await api.http.post(`/api/v1/companies/${verdi.companyId}/counterparts`).set(rossi.auth).send({ company_name: 'X' }), 403, 'forbidden');
    expect((await api.db.query('SELECT city FROM counterparts WHERE id = $1', [foreign.id]))[0].city).toBe('Milano');
    expect((await api.db.query('SELECT vat_number FROM counterparts WHERE id = $1', [mine.id]))[0].vat_number).toBe(mine.vatNumber);
  });

  it('keeps both of two concurrent updates of different members', async () => {
    for (let round = 0; round < 5; round++) {
      const counterpart = await fixtures.counterpart({ companyName: `Concorrente ${round}`, vatNumber: null, city: 'Milano', address: 'Via Roma 1' });
      await Promise.all([patch(counterpart.id, { city: `Torino ${round}` }).expect(200), patch(counterpart.id, { address: `Via Po ${round}` }).expect(200)]);
      const [row] = await api.db.query('SELECT city, address FROM counterparts WHERE id = $1', [counterpart.id]);
      expect(row).toEqual({ city: `Torino ${round}`, address: `Via Po ${round}` });
    }
  });
});
