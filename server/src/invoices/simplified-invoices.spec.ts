import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { sample } from '../../test/fatturapa-oracle.js';
import { SignedFiles } from '../../test/signed-files.js';
import { startWorker } from '../../test/worker.js';
import { invoiceToXml, SIMPLIFIED_NAMESPACE } from './fatturapa/index.js';
import { exampleSimplifiedInvoice } from './invoice-example.js';

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A response body as the bytes sent, whatever its type. */
const bytesOf = (request: ReturnType<TestApi['http']['get']>) =>
  request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

describe('simplified invoices (FSM10) through the API and the SDI sandbox', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let files: SignedFiles;
  let alpha: Tenant;

  beforeAll(async () => {
    api = await startApi();
    worker = await startWorker(api.config.databaseUrl, { SDI_SANDBOX_DELAYS: '100ms,100ms' });
    files = SignedFiles.create();
    // The official example's seller.
    alpha = await createTenant(api, "SOCIETA' ALPHA SRL");
    await api.db.query('UPDATE companies SET vat_number = $1 WHERE id = $2', ['IT01234567890', alpha.companyId]);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    files?.remove();
  });

  const url = (query = '') => `/api/v1/companies/${alpha.companyId}/documents/invoice${query}`;
  const post = (body: Buffer | string | object, type: string, query = '?issue=true') => {
    const request = api.http.post(url(query)).set(alpha.auth).set('Content-Type', type);
    return typeof body === 'object' && !Buffer.isBuffer(body) ? request.send(body) : request.send(body);
  };
  const documentUrl = (id: string) => `/api/v1/companies/${alpha.companyId}/documents/${id}`;
  const delivered = (id: string) =>
    until(
      'delivery',
      () => api.http.get(documentUrl(id)).set(alpha.auth),
      (r) => r.body.status === 'DELIVERED',
    );
  const official = sample('simplified', 'IT01234567890_FSM10.xml');
  const numbered = (number: string) => Buffer.from(official.toString('utf8').replace('<Numero>123</Numero>', `<Numero>${number}</Numero>`));

  it('creates the official example as an ISSUED FSM10 invoice, sends it, and serves its XML back byte for byte', async () => {
    const created = await post(official, 'application/xml').expect(201);
    const document = created.body.data[0];
    expect(document).toMatchObject({
      number: '123',
      type: 'INVOICE',
      direction: 'ISSUED',
      format: 'FSM10',
      is_e_invoice: true,
      creation_date: '2019-01-01',
      gross_amount: { amount: '25.00', currency: 'EUR' },
      vat_amount: { amount: '4.51', currency: 'EUR' },
      counterpart: expect.objectContaining({ company_name: 'BETA GAMMA', vat_number: 'IT09876543210', destination_code: '0000000' }),
      flows: [expect.objectContaining({ amount: { amount: '25.00', currency: 'EUR' }, expected_payment_date: '2019-01-01', payment_method: null })],
    });
    expect(document.file_name).toMatch(/^IT01234567890_\w{5}\.xml$/);
    await delivered(document.id);
    const read = await api.http
      .get(`${documentUrl(document.id)}/invoice`)
      .set(alpha.auth)
      .expect(200);
    expect(read.body).toMatchObject({ versione: 'FSM10', namespace: SIMPLIFIED_NAMESPACE });
    expect(read.body.fattura_elettronica_body[0].dati_beni_servizi[0]).toEqual(expect.objectContaining({ importo: '25.00', dati_iva: { aliquota: '22.00' } }));
    const link = new URL(read.body.xml_url);
    const file = await bytesOf(api.http.get(link.pathname + link.search)).expect(200);
    expect(Buffer.compare(file.body as Buffer, official)).toBe(0);
  });

  it('takes the JSON form (progressivo_invio left to Flusso) and writes the FSM10 file from it', async () => {
    const invoice = exampleSimplifiedInvoice({ sellerVat: '01234567890', number: 'FS-1' });
    const { progressivo_invio: _omitted, ...transmission } = invoice.fattura_elettronica_header.dati_trasmissione;
    const body = { ...invoice, fattura_elettronica_header: { ...invoice.fattura_elettronica_header, dati_trasmissione: transmission } };
    const created = await post(body, 'application/json').expect(201);
    const document = created.body.data[0];
    expect(document).toMatchObject({ number: 'FS-1', format: 'FSM10', gross_amount: { amount: '122.00' }, vat_amount: { amount: '22.00' } });
    expect(document.counterpart).toMatchObject({ company_name: 'RSSMRA80A01F205X', tax_number: 'RSSMRA80A01F205X', vat_number: null });
    await delivered(document.id);
    const read = await api.http
      .get(`${documentUrl(document.id)}/invoice`)
      .set(alpha.auth)
      .expect(200);
    const progressivo = read.body.fattura_elettronica_header.dati_trasmissione.progressivo_invio;
    expect(document.file_name).toBe(`IT01234567890_${progressivo}.xml`);
    const link = new URL(read.body.xml_url);
    const file = await bytesOf(api.http.get(link.pathname + link.search)).expect(200);
    const written = {
      ...invoice,
      fattura_elettronica_header: {
        ...invoice.fattura_elettronica_header,
        dati_trasmissione: { ...invoice.fattura_elettronica_header.dati_trasmissione, progressivo_invio: progressivo },
      },
    };
    expect((file.body as Buffer).toString('utf8')).toBe(invoiceToXml(written));
  });

  it('takes a signed file (.p7m) carrying an FSM10 invoice, and serves the envelope as received', async () => {
    const envelope = files.sign(numbered('124'));
    const created = await post(envelope, 'application/pkcs7-mime').expect(201);
    const document = created.body.data[0];
    expect(document).toMatchObject({ number: '124', format: 'FSM10' });
    expect(document.file_name).toMatch(/\.xml\.p7m$/);
    await delivered(document.id);
    const read = await api.http
      .get(`${documentUrl(document.id)}/invoice`)
      .set(alpha.auth)
      .expect(200);
    const signed = new URL(read.body.signed_file_url);
    const asReceived = await bytesOf(api.http.get(signed.pathname + signed.search)).expect(200);
    expect(Buffer.compare(asReceived.body as Buffer, envelope)).toBe(0);
  });

  it("becomes a RECEIVED document when a supplier's simplified invoice reaches the company (the sandbox's received invoices)", async () => {
    // The official example's buyer, BETA GAMMA (IT09876543210), is a company of its own here.
    const beta = await createTenant(api, 'BETA GAMMA');
    await api.db.query('UPDATE companies SET vat_number = $1 WHERE id = $2', ['IT09876543210', beta.companyId]);
    const response = await api.http
      .post(`/api/v1/companies/${beta.companyId}/sandbox/received-invoices`)
      .set(beta.auth)
      .set('Content-Type', 'application/xml')
      .send(official)
      .expect(201);
    expect(response.body.data[0]).toMatchObject({
      direction: 'RECEIVED',
      status: 'DELIVERED',
      format: 'FSM10',
      gross_amount: { amount: '25.00', currency: 'EUR' },
      counterpart: expect.objectContaining({ company_name: "SOCIETA' ALPHA SRL", vat_number: 'IT01234567890' }),
      flows: [expect.objectContaining({ amount: { amount: '25.00', currency: 'EUR' } })],
    });
  });

  it('refuses a TD07 over 400.00 euro (00460), and files the schema refuses, with pointers', async () => {
    const over = official
      .toString('utf8')
      .replace('<Importo>25.00</Importo>', '<Importo>400.01</Importo>')
      .replace('<Numero>123</Numero>', '<Numero>125</Numero>');
    expectError(await post(over, 'application/xml'), 422, 'sdi_check_failed', '/FatturaElettronicaBody/0/DatiBeniServizi', /^00460: /);
    const json = exampleSimplifiedInvoice({ sellerVat: '01234567890', number: 'FS-2' });
    json.fattura_elettronica_body[0].dati_beni_servizi[0].importo = '1000.00';
    expectError(await post(json, 'application/json'), 422, 'sdi_check_failed', '/fattura_elettronica_body/0/dati_beni_servizi', /^00460: /);
    // A credit note over the limit is simplified only when it names the invoice it corrects (art. 21-bis c.1 h).
    json.fattura_elettronica_body[0].dati_generali.dati_generali_documento.tipo_documento = 'TD08';
    expectError(await post(json, 'application/json'), 422, 'sdi_check_failed', '/fattura_elettronica_body/0/dati_beni_servizi', /^00460: .*TD08/);
    const ordinaryType = official.toString('utf8').replace('<TipoDocumento>TD07', '<TipoDocumento>TD01');
    expectError(
      await post(ordinaryType, 'application/xml'),
      422,
      'invalid_invoice',
      '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/TipoDocumento',
    );
    // The same number, year, type and seller: a duplicate, as for ordinary invoices.
    expectError(
      await post(official, 'application/xml'),
      422,
      'sdi_check_failed',
      '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Numero',
      /^00404: /,
    );
  });
});
