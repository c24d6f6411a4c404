import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { startWorker } from '../../test/worker.js';
import { partitaIvaCheckDigit } from '../common/validation/italian-identifiers.js';
import { openPdf, renderPage } from './f24-pdf.js';
import { writeF24Pdf, type F24FormToWrite } from './f24-writer.js';
import { EXAMPLE_PDF, type F24RequestDto } from './f24.dto.js';

const line = (
  code: string,
  period: string,
  debit: string | null,
  credit: string | null = null,
  office: string | null = null,
  reference: string | null = null,
) => ({
  code,
  period,
  debit,
  credit,
  office,
  reference,
});

describe('F24 forms read from PDF', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let rossi: Tenant;
  let verdi: Tenant;
  let taxCode: string;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_POINTS: '1000000', F24_MAX_BYTES: '400000' });
    worker = await startWorker(api.config.databaseUrl, { F24_MAX_BYTES: '400000', F24_WARM_UP: 'true' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    taxCode = rossi.vatNumber.replace(/^IT/, '');
  });

  afterAll(async () => {
    await worker.close();
    await api.close();
  });

  const form = (values: Partial<F24FormToWrite> = {}): F24FormToWrite => ({
    tax_code: taxCode,
    name: 'ROSSI FORNITURE S.R.L.',
    payment_date: '2026-03-16',
    sections: [
      { kind: 'ERARIO', lines: [line('1001', '2026', '1234.56'), line('6002', '2026', '2100.00'), line('6099', '2025', null, '300.00')] },
      { kind: 'INPS', lines: [line('DM10', '02/2026', '987.65', null, '5100', '5112345678')] },
      { kind: 'REGIONI', lines: [line('3802', '2025', '145.20', null, '08')] },
      { kind: 'TRIBUTI_LOCALI', lines: [line('3918', '2026', '412.00', null, 'F205')] },
    ],
    ...values,
  });

  const upload = (bytes: Uint8Array | Buffer, type = 'application/pdf', tenant: Tenant = rossi, query = '') =>
    api.http.post(`/api/v1/companies/${tenant.companyId}/requests/f24/ocr${query}`).set(tenant.auth).set('content-type', type).send(Buffer.from(bytes));

  async function settled(location: string, tenant: Tenant = rossi): Promise<F24RequestDto> {
    for (let i = 0; i < 600; i++) {
      const answer = await api.http.get(location).set(tenant.auth).expect(200);
      if (answer.body.status !== 'WAITING_OCR') return answer.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${location} still waiting`);
  }

  it('reads a multi-section form: 202 with Location, then a PROCESSED request, an F24 document and its flow for the saldo', async () => {
    const pdf = await writeF24Pdf(form());
    const accepted = await upload(pdf, 'application/pdf', rossi, '?file_name=F24-marzo.pdf&label=IVA%20marzo').expect(202);
    expect(accepted.body.data.already_uploaded).toBe(false);
    expect(accepted.headers.location).toBe(`/api/v1/companies/${rossi.companyId}/requests/f24/${accepted.body.data.request_id}`);
    const request = await settled(accepted.headers.location);
    expect(request.failure).toBeNull();
    expect(request).toMatchObject({ status: 'PROCESSED', pages: ['text'], file_name: 'F24-marzo.pdf', label: 'IVA marzo' });
    expect(request.form!).toMatchObject({ tax_code: taxCode, payment_date: '2026-03-16', saldo: '4579.41' });
    expect(request.form!.sections.map((s: { kind: string }) => s.kind)).toEqual(['ERARIO', 'INPS', 'REGIONI', 'TRIBUTI_LOCALI']);
    expect(request.form!.sections[0]).toMatchObject({ total_debit: '3334.56', total_credit: '300.00', balance: '3034.56' });
    expect(request.form!.sections[0].lines[2]).toEqual({ code: '6099', office: null, reference: null, period: '2025', debit: null, credit: '300.00' });
    expect(request.form!.sections[1].lines[0]).toEqual({
      code: 'DM10',
      office: '5100',
      reference: '5112345678',
      period: '02/2026',
      debit: '987.65',
      credit: null,
    });

    const document = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${request.document_id}?expand=flows`).set(rossi.auth).expect(200);
    expect(document.body).toMatchObject({ type: 'F24', direction: 'RECEIVED', status: 'CREATED', gross_amount: { amount: '4579.41', currency: 'EUR' } });
    expect(document.body.flows).toHaveLength(1);
    expect(document.body.flows[0]).toMatchObject({
      amount: { amount: '4579.41', currency: 'EUR' },
      payment_status: 'TO_PAY',
      payment_method: 'TAX_FORM',
      expected_payment_date: '2026-03-16',
    });

    const file = await api.http.get(`${accepted.headers.location}/file`).set(rossi.auth).buffer(true).expect(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(file.body as Buffer, Buffer.from(pdf))).toBe(0);

    const [event]: Array<{ type: string; payload: { id: string; status: string } }> = await api.db.query(
      `SELECT type, payload FROM events WHERE payload->>'id' = $1`,
      [request.id],
    );
    expect(event).toMatchObject({ type: 'f24.processed', payload: { id: request.id, status: 'PROCESSED' } });
    // The document it made is announced once, in the same transaction, as GET answers it with every member expanded.
    const created: Array<{ payload: unknown; transaction_id: string }> = await api.db.query(
      `SELECT payload, transaction_id FROM events WHERE type = 'document.created' AND payload->>'id' = $1`,
      [request.document_id],
    );
    const expanded = await api.http
      .get(`/api/v1/companies/${rossi.companyId}/documents/${request.document_id}?expand=category,counterpart,flows,sectional,subcategory`)
      .set(rossi.auth)
      .expect(200);
    expect(created.map((row) => row.payload)).toEqual([expanded.body]);
    const [processed]: Array<{ transaction_id: string }> = await api.db.query(
      `SELECT transaction_id FROM events WHERE type = 'f24.processed' AND payload->>'id' = $1`,
      [request.id],
    );
    expect(created[0].transaction_id).toBe(processed.transaction_id);

    const again = await upload(pdf).expect(202);
    expect(again.body.data).toEqual({ request_id: request.id, already_uploaded: true });
  });

  it('reads a credit-only form (saldo zero) as a document with nothing to pay', async () => {
    const pdf = await writeF24Pdf(form({ sections: [{ kind: 'ERARIO', lines: [line('6099', '2025', '500.00'), line('6099', '2025', null, '500.00')] }] }));
    const request = await settled((await upload(pdf).expect(202)).headers.location);
    expect(request).toMatchObject({ status: 'PROCESSED', form: { saldo: '0.00' } });
    const document = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${request.document_id}?expand=flows`).set(rossi.auth).expect(200);
    expect(document.body).toMatchObject({ type: 'F24', gross_amount: { amount: '0.00' }, flows: [] });
  });

  it.each([
    [
      'a section whose totals differ from its lines',
      { sections: [{ kind: 'ERARIO' as const, lines: [line('1001', '2026', '100.00')], total_debit: '110.00' }] },
      'section_totals_mismatch',
    ],
    [
      'a saldo finale that is not the sections added up',
      { saldo: '99.00', sections: [{ kind: 'INAIL' as const, lines: [line('P', '2026', '90.00', null, '13100', '12345678')] }] },
      'saldo_mismatch',
    ],
    ['another contributor', { tax_code: '1234567890' + partitaIvaCheckDigit('1234567890') }, 'contributor_not_company'],
    ['a codice fiscale failing its check character', { tax_code: 'RSSMRA85T10A562A' }, 'tax_code_invalid'],
  ])('refuses %s: FAILED with the reason and no document', async (_name, values, reason) => {
    const request = await settled((await upload(await writeF24Pdf(form(values))).expect(202)).headers.location);
    expect(request).toMatchObject({ status: 'FAILED', document_id: null, form: null, failure: { reason } });
    const [event]: Array<{ type: string }> = await api.db.query(`SELECT type FROM events WHERE payload->>'id' = $1`, [request.id]);
    expect(event.type).toBe('f24.failed');
  });

  it("takes a sole trader's form: the contributor is the person's codice fiscale, recorded as the company's tax number", async () => {
    // Giuseppe Verdi, born in Milan on 12 March 1975: VRD GPP 75 C 12 F205, check letter K.
    const person = 'VRDGPP75C12F205K';
    const sections = [{ kind: 'ERARIO' as const, lines: [line('4001', '2025', '1520.00')] }];
    const send = async () =>
      settled((await upload(await writeF24Pdf(form({ tax_code: person, sections })), 'application/pdf', verdi).expect(202)).headers.location, verdi);
    const refused = await send();
    expect(refused).toMatchObject({ status: 'FAILED', failure: { reason: 'contributor_not_company' } });
    expect(refused.failure!.detail).toContain(person);

    await api.db.query('UPDATE companies SET tax_number = $1 WHERE id = $2', [person, verdi.companyId]);
    const sole = await writeF24Pdf(form({ tax_code: person, name: 'VERDI GIUSEPPE', payment_date: '2026-06-30', sections }));
    const request = await settled((await upload(sole, 'application/pdf', verdi).expect(202)).headers.location, verdi);
    expect(request.failure).toBeNull();
    expect(request).toMatchObject({ status: 'PROCESSED', form: { tax_code: person, saldo: '1520.00' } });
    // Its partita IVA still names it; another person's codice fiscale (valid, check letter C) does not.
    const byVat = await writeF24Pdf(form({ tax_code: verdi.vatNumber.replace(/^IT/, ''), payment_date: '2026-07-16', sections }));
    expect(await settled((await upload(byVat, 'application/pdf', verdi).expect(202)).headers.location, verdi)).toMatchObject({ status: 'PROCESSED' });
    const other = await writeF24Pdf(form({ tax_code: 'BNCLCU82L41F205C', payment_date: '2026-08-20', sections }));
    expect(await settled((await upload(other, 'application/pdf', verdi).expect(202)).headers.location, verdi)).toMatchObject({
      status: 'FAILED',
      failure: { reason: 'contributor_not_company' },
    });
  });

  it("takes the reference's example PDF (the Postman suite sends it) and fails it: no contributor on it", async () => {
    const request = await settled((await upload(Buffer.from(EXAMPLE_PDF)).expect(202)).headers.location);
    expect(request).toMatchObject({ status: 'FAILED', pages: ['text'], failure: { reason: 'tax_code_unreadable' } });
  });

  it('reads a scanned page by OCR', async () => {
    const pdf = await openPdf(await writeF24Pdf(form({ payment_date: '2026-04-16' })));
    const png = await renderPage(pdf, 1, 200);
    await pdf.destroy();
    const request = await settled((await upload(png, 'image/png').expect(202)).headers.location);
    expect(request.failure).toBeNull();
    expect(request).toMatchObject({ status: 'PROCESSED', pages: ['ocr'], media_type: 'image/png', form: { saldo: '4579.41', payment_date: '2026-04-16' } });
  });

  it('answers a clear 4xx for what cannot be an F24, before storing anything', async () => {
    expectError(await upload(Buffer.alloc(0)), 422, 'empty_file');
    expectError(await upload(Buffer.from('just some text, no PDF here')), 422, 'not_a_pdf');
    expectError(await upload(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer << /Root 1 0 R /Encrypt 5 0 R >>\n%%EOF')), 422, 'encrypted_pdf');
    expectError(await upload(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500_000, 32)])), 413, 'payload_too_large');
    expectError(await upload(Buffer.from('<x/>'), 'application/xml'), 415, 'unsupported_media_type');
    const [{ count }]: Array<{ count: string }> = await api.db.query(`SELECT count(*) FROM f24_requests WHERE company_id = $1 AND size < 100`, [
      rossi.companyId,
    ]);
    expect(count).toBe('0');
  });

  it("keeps a company's requests its own, and needs payments:f24", async () => {
    const accepted = await upload(await writeF24Pdf(form({ payment_date: '2026-05-16' }))).expect(202);
    expectError(await api.http.get(accepted.headers.location.replace(rossi.companyId, verdi.companyId)).set(verdi.auth), 403, 'forbidden');
    const limited = await api.integrators.createKey(rossi.integratorId, 'development', 'payments only', ['payments:write']);
    const refused = await api.http.get(accepted.headers.location).set({ Authorization: `Bearer ${limited.key}` });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({ code: 'insufficient_permission', required_permission: 'payments:f24:read' });
  });
});
