import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { SignedFiles } from '../../test/signed-files.js';
import type { Account } from '../accounts/account.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { invoiceToXml, type Invoice } from '../invoices/fatturapa/index.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { StoredInvoice } from '../invoices/invoice.entity.js';
import { Transaction } from '../transactions/transaction.entity.js';

/** A supplier's invoice to the tenant: the example, with the tenant as the buyer and the supplier as seller and sender. */
function supplierInvoice(buyer: Tenant, options: { supplierVat?: string; number?: string; progressivo?: string } = {}): Invoice {
  const invoice = exampleInvoice({ sellerVat: options.supplierVat ?? '01234567890', number: options.number ?? 'A-1' });
  const header = invoice.fattura_elettronica_header;
  header.dati_trasmissione.progressivo_invio = options.progressivo ?? '00001';
  header.cessionario_committente.dati_anagrafici = {
    id_fiscale_iva: { id_paese: 'IT', id_codice: buyer.vatNumber.slice(2) },
    anagrafica: { denominazione: 'Acquirente S.r.l.' },
  };
  return invoice;
}

describe('sandbox helpers (development environment)', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let account: Account;
  let verdiAccount: Account;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    account = await new Fixtures(api.db, rossi.companyId).account({ nickname: 'Intesa', currency: null });
    verdiAccount = await new Fixtures(api.db, verdi.companyId).account();
  });
  afterAll(() => api.close());

  const postTransactions = (tenant: Tenant, body: unknown) =>
    api.http
      .post(`/api/v1/companies/${tenant.companyId}/sandbox/transactions`)
      .set(tenant.auth)
      .send(body as object);
  const receive = (tenant: Tenant, body: string | Buffer, type = 'application/xml') =>
    api.http.post(`/api/v1/companies/${tenant.companyId}/sandbox/received-invoices`).set(tenant.auth).set('Content-Type', type).send(body);
  const count = async (companyId: string) => api.db.getRepository(Transaction).countBy({ companyId });

  describe('POST /sandbox/transactions', () => {
    it('creates movements as an import does, and reconciles the one that names an invoice', async () => {
      const invoice = exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'S-1' });
      const created = await api.http
        .post(`/api/v1/companies/${rossi.companyId}/documents/invoice?issue=true&reconciliation_identifier=RF18-0777`)
        .set(rossi.auth)
        .send(invoice as object)
        .expect(201);
      const [flow] = created.body.data[0].flows;
      const events = async () => (await api.db.getRepository(DomainEvent).findBy({ companyId: rossi.companyId })).map((e) => e.type);
      const before = await events();

      const response = await postTransactions(rossi, {
        account_id: account.id,
        transactions: [
          {
            amount: '1830.00',
            date: '2026-03-21',
            description: 'BONIFICO SEPA DA BIANCHI COSTRUZIONI CAUS. rf18-0777',
            counterpart_name: 'Bianchi Costruzioni S.p.A.',
          },
          { amount: '-12.50', date: '2026-03-22', description: 'Commissioni bonifico' },
        ],
      }).expect(201);

      expect(response.body.page).toBeUndefined();
      const [payment, fee] = response.body.data;
      expect(payment).toMatchObject({
        account_id: account.id,
        type: 'CREDIT',
        amount: { amount: '1830.00', currency: 'EUR' },
        date: '2026-03-21',
        value_date: '2026-03-21',
        booking_date_time: null,
        counterpart_name: 'Bianchi Costruzioni S.p.A.',
        clean_description: null,
        reconciliations: [
          expect.objectContaining({
            flow_id: flow.id,
            amount: { amount: '1830.00', currency: 'EUR' },
            flow: expect.objectContaining({ payment_status: 'PAID' }),
          }),
        ],
      });
      expect(fee).toMatchObject({ type: 'DEBIT', amount: { amount: '12.50', currency: 'EUR' }, counterpart_name: null, reconciliations: [] });
      // The reconciliation announced its change, as an import's does.
      expect((await events()).sort()).toEqual([...before, 'transaction.created', 'transaction.created', 'document.updated', 'reconciliation.created'].sort());
      // Listed and found as any transaction.
      const listed = await api.http.get(`/api/v1/companies/${rossi.companyId}/transactions?filter[description__ilike]=commissioni`).set(rossi.auth).expect(200);
      expect(listed.body.data.map((t: { id: string }) => t.id)).toEqual([fee.id]);
    });

    it('refuses a bad movement with a pointer, and then creates none of the batch', async () => {
      const good = { amount: '10.00', date: '2026-03-01', description: 'ok' };
      const before = await count(rossi.companyId);
      // A member of the wrong kind is a 400 bad_request, a value out of its rules a 422 (validation.pipe.ts).
      const refused = (response: Response, pointer: string) => {
        expect([400, 422]).toContain(response.status);
        expect(response.body.errors).toEqual([
          expect.objectContaining({ code: response.status === 400 ? 'bad_request' : 'unprocessable_entity', source: { pointer } }),
        ]);
      };
      const bad = async (transaction: object, pointer: string) =>
        refused(await postTransactions(rossi, { account_id: account.id, transactions: [good, transaction] }), pointer);
      await bad({ ...good, amount: '0.00' }, '/transactions/1/amount');
      await bad({ ...good, amount: '12,50' }, '/transactions/1/amount');
      await bad({ ...good, amount: 12.5 }, '/transactions/1/amount');
      await bad({ ...good, date: '2026-02-30' }, '/transactions/1/date');
      await bad({ ...good, description: '  ' }, '/transactions/1/description');
      await bad({ amount: '1.00', date: '2026-03-01' }, '/transactions/1/description');
      await bad({ ...good, counterpart_name: 'x'.repeat(1001) }, '/transactions/1/counterpart_name');
      refused(await postTransactions(rossi, { account_id: account.id, transactions: [] }), '/transactions');
      const many = Array.from({ length: 101 }, () => good);
      refused(await postTransactions(rossi, { account_id: account.id, transactions: many }), '/transactions');
      refused(await postTransactions(rossi, { transactions: [good] }), '/account_id');
      expect(await count(rossi.companyId)).toBe(before);
    });

    it("answers 404 for an unknown account, 403 for another company's, and 403 without transactions:write", async () => {
      const good = [{ amount: '10.00', date: '2026-03-01', description: 'ok' }];
      expectError(await postTransactions(rossi, { account_id: '7d0c4a4e-3f3a-4c59-9d5e-0c6b1a2b3c4d', transactions: good }), 404, 'not_found', '/account_id');
      expectError(await postTransactions(rossi, { account_id: verdiAccount.id, transactions: good }), 403, 'forbidden', '/account_id');
      const reader = await api.integrators.createKey(rossi.integratorId, 'development', 'reader', ['transactions:read']);
      const response = await api.http
        .post(`/api/v1/companies/${rossi.companyId}/sandbox/transactions`)
        .set('Authorization', `Bearer ${reader.key}`)
        .send({ account_id: account.id, transactions: good });
      expect(response.status).toBe(403);
      expect(response.body.errors).toEqual([expect.objectContaining({ code: 'insufficient_permission', required_permission: 'transactions:write' })]);
      expect(await count(verdi.companyId)).toBe(0);
    });
  });

  describe('POST /sandbox/received-invoices', () => {
    it("makes a supplier's file a RECEIVED, DELIVERED document with payable flows, readable at once", async () => {
      const xml = invoiceToXml(supplierInvoice(rossi, { number: 'FORN-1' }), { pretty: true });
      const response = await receive(rossi, xml).expect(201);
      const [document] = response.body.data;
      expect(document).toMatchObject({
        number: 'FORN-1',
        type: 'INVOICE',
        direction: 'RECEIVED',
        status: 'DELIVERED',
        is_e_invoice: true,
        gross_amount: { amount: '1830.00', currency: 'EUR' },
        file_name: 'IT01234567890_00001.xml',
        counterpart: expect.objectContaining({ company_name: 'Rossi Forniture S.r.l.', vat_number: 'IT01234567890' }),
        flows: [expect.objectContaining({ amount: { amount: '1830.00', currency: 'EUR' }, expected_payment_date: '2026-04-01', payment_status: 'TO_PAY' })],
      });
      const read = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${document.id}/invoice`).set(rossi.auth).expect(200);
      expect(read.body.fattura_elettronica_body[0].dati_generali.dati_generali_documento.numero).toBe('FORN-1');
      const link = new URL(read.body.xml_url as string);
      const file = await api.http
        .get(link.pathname + link.search)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect((file.body as Buffer).toString('utf8')).toBe(xml);
      // Not the company's own file: its counter is untouched, and nothing goes to the SDI.
      const stored = await api.db.getRepository(StoredInvoice).findOneByOrFail({ documentId: document.id });
      expect(stored).toMatchObject({ progressivoInvio: null, transmissionRequestedAt: null, sentAt: expect.any(Date) });
    });

    it('recognises a duplicate (same seller, number and year), and takes two suppliers with the same ProgressivoInvio', async () => {
      const xml = invoiceToXml(supplierInvoice(rossi, { number: 'DUP-1', progressivo: '00007' }));
      await receive(rossi, xml).expect(201);
      expectError(await receive(rossi, xml), 422, 'sdi_check_failed', '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Numero');
      expect((await receive(rossi, xml)).body.errors[0].detail).toMatch(/^00404: /);
      // Another supplier's file with the same ProgressivoInvio and number is another invoice.
      const other = invoiceToXml(supplierInvoice(rossi, { supplierVat: '07643520567', number: 'DUP-1', progressivo: '00007' }));
      expect((await receive(rossi, other).expect(201)).body.data[0].file_name).toBe('IT07643520567_00007.xml');
      // The company's own invoice with the supplier's number is no duplicate of the supplier's either.
      await api.http
        .post(`/api/v1/companies/${rossi.companyId}/documents/invoice`)
        .set(rossi.auth)
        .send(exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'DUP-1' }) as object)
        .expect(201);
    });

    it('takes a signed file (.p7m) as received, and refuses one whose signature does not hold', async () => {
      const signing = SignedFiles.create();
      try {
        const xml = Buffer.from(invoiceToXml(supplierInvoice(rossi, { number: 'P7M-1', progressivo: '0000A' })), 'utf8');
        const envelope = signing.sign(xml);
        const response = await receive(rossi, envelope, 'application/pkcs7-mime').expect(201);
        expect(response.body.data[0]).toMatchObject({ number: 'P7M-1', direction: 'RECEIVED', file_name: 'IT01234567890_0000A.xml.p7m' });
        const stored = await api.db.getRepository(StoredInvoice).findOneByOrFail({ documentId: response.body.data[0].id });
        expect(Buffer.compare(stored.signedFile!, envelope)).toBe(0);
        expect(Buffer.compare(stored.xml, xml)).toBe(0);
        const read = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${response.body.data[0].id}/invoice`).set(rossi.auth).expect(200);
        expect(read.body.signed_file_url).toEqual(expect.any(String));
        // A byte of the content changed after signing: the envelope no longer holds.
        const tampered = Buffer.from(signing.sign(Buffer.from(invoiceToXml(supplierInvoice(rossi, { number: 'P7M-2' })), 'utf8')));
        const at = tampered.indexOf('P7M-2');
        tampered[at + 4] = '3'.charCodeAt(0);
        expectError(await receive(rossi, tampered, 'application/pkcs7-mime'), 422, 'invalid_signed_file');
      } finally {
        signing.remove();
      }
    });

    it('refuses a file where the company is not the buyer, a bad file, and a JSON body', async () => {
      const own = invoiceToXml(exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'OWN-1' }));
      expectError(await receive(rossi, own), 422, 'sdi_check_failed', '/FatturaElettronicaHeader/CessionarioCommittente/DatiAnagrafici');
      expectError(
        await receive(verdi, invoiceToXml(supplierInvoice(rossi, { number: 'X-1' }))),
        422,
        'sdi_check_failed',
        '/FatturaElettronicaHeader/CessionarioCommittente/DatiAnagrafici',
      );
      expectError(await receive(rossi, '<FatturaElettronica'), 400, 'invalid_invoice_xml');
      const json = await api.http
        .post(`/api/v1/companies/${rossi.companyId}/sandbox/received-invoices`)
        .set(rossi.auth)
        .send(supplierInvoice(rossi) as object);
      expectError(json, 415, 'unsupported_media_type');
      const writer = await api.integrators.createKey(rossi.integratorId, 'development', 'reader', ['documents:read']);
      const forbidden = await api.http
        .post(`/api/v1/companies/${rossi.companyId}/sandbox/received-invoices`)
        .set('Authorization', `Bearer ${writer.key}`)
        .set('Content-Type', 'application/xml')
        .send(invoiceToXml(supplierInvoice(rossi, { number: 'P-1' })));
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.errors).toEqual([expect.objectContaining({ code: 'insufficient_permission', required_permission: 'documents:write' })]);
    });
  });
  describe('POST /sandbox/documents/{id}/sdi-notices', () => {
    const issue = async (number: string, codiceDestinatario?: string, query = '?issue=true') =>
      (
        await api.http
          .post(`/api/v1/companies/${rossi.companyId}/documents/invoice${query}`)
          .set(rossi.auth)
          .send(exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number, codiceDestinatario }) as object)
          .expect(201)
      ).body.data[0] as { id: string };
    const deliver = (id: string) => api.http.post(`/api/v1/companies/${rossi.companyId}/sandbox/documents/${id}/sdi-notices`).set(rossi.auth);
    // document.updated events carry the document as it became (DocumentsService.recordUpdated).
    const eventsOf = async (id: string) =>
      (await api.db.getRepository(DomainEvent).find({ where: { companyId: rossi.companyId, type: 'document.updated' }, order: { createdAt: 'ASC' } }))
        .filter((e) => e.payload.id === id)
        .map((e) => e.payload.version);

    it('transmits a CREATED invoice and sends its outcome at once, each change announced, nothing twice', async () => {
      const document = await issue('SDI-1');
      const answer = await deliver(document.id).expect(200);
      expect(answer.body).toMatchObject({
        id: document.id,
        status: 'DELIVERED',
        delivery_status: 'RC',
        flows: [expect.objectContaining({ payment_status: 'TO_PAY' })],
      });
      expect(await eventsOf(document.id)).toEqual([2, 3]);
      const read = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${document.id}/invoice`).set(rossi.auth).expect(200);
      expect(read.body.xml_url).toEqual(expect.any(String));
      // Nothing more is owed: the same answer, no new event.
      expect((await deliver(document.id).expect(200)).body).toMatchObject({ status: 'DELIVERED', version: 3 });
      expect(await eventsOf(document.id)).toEqual([2, 3]);
    });

    it("sends the trigger's outcome, and what the sandbox still owed a SENT invoice (its worker job then sends nothing)", async () => {
      const discarded = await issue('SDI-2', 'DISCARD');
      expect((await deliver(discarded.id).expect(200)).body).toMatchObject({ status: 'DISCARDED', delivery_status: 'NS 00311' });
      // As the worker leaves it: transmitted (SENT), the delivery notice owed in a few seconds.
      const sent = await issue('SDI-3');
      await api.db.query(`UPDATE documents SET status = 'SENT' WHERE id = $1`, [sent.id]);
      await api.db.query(`INSERT INTO sdi_sandbox_notices (company_id, document_id, step, due_at) VALUES ($1, $2, 0, now() + interval '1 hour')`, [
        rossi.companyId,
        sent.id,
      ]);
      expect((await deliver(sent.id).expect(200)).body).toMatchObject({ status: 'DELIVERED', delivery_status: 'RC' });
      expect(await api.db.query('SELECT step FROM sdi_sandbox_notices WHERE document_id = $1', [sent.id])).toEqual([]);
    });

    it("refuses a DRAFT and a document that is not an e-invoice; 404 unknown, 403 another company's", async () => {
      const draft = await issue('SDI-4', undefined, '');
      expectError(await deliver(draft.id), 422, 'invalid_state');
      const plain = await new Fixtures(api.db, rossi.companyId).document();
      expectError(await deliver(plain.id), 422, 'invalid_state');
      expectError(await deliver('7d0c4a4e-3f3a-4c59-9d5e-0c6b1a2b3c4d'), 404, 'not_found');
      const theirs = await new Fixtures(api.db, verdi.companyId).document();
      expectError(await deliver(theirs.id), 403, 'forbidden');
    });
  });
});

describe('sandbox helpers in production', () => {
  let api: TestApi;
  let rossi: Tenant;

  beforeAll(async () => {
    api = await startApi({ FLUSSO_ENV: 'production', API_KEY_PEPPER: 'x', WEBHOOK_SECRET_KEY: 'y', INVOICE_LINK_SECRET: 'z', TRUST_PROXY: 'true' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
  });
  afterAll(() => api.close());

  it('answer 404 not_found to a production key, and create nothing', async () => {
    const account = await new Fixtures(api.db, rossi.companyId).account();
    const transactions = await api.http
      .post(`/api/v1/companies/${rossi.companyId}/sandbox/transactions`)
      .set(rossi.auth)
      .set('X-Forwarded-Proto', 'https')
      .send({ account_id: account.id, transactions: [{ amount: '10.00', date: '2026-03-01', description: 'ok' }] });
    expectError(transactions, 404, 'not_found');
    const received = await api.http
      .post(`/api/v1/companies/${rossi.companyId}/sandbox/received-invoices`)
      .set(rossi.auth)
      .set('X-Forwarded-Proto', 'https')
      .set('Content-Type', 'application/xml')
      .send(invoiceToXml(supplierInvoice(rossi)));
    expectError(received, 404, 'not_found');
    const notices = await api.http
      .post(`/api/v1/companies/${rossi.companyId}/sandbox/documents/${account.id}/sdi-notices`)
      .set(rossi.auth)
      .set('X-Forwarded-Proto', 'https');
    expectError(notices, 404, 'not_found');
    expect(await api.db.getRepository(Transaction).countBy({ companyId: rossi.companyId })).toBe(0);
    expect(await api.db.getRepository(StoredInvoice).countBy({ companyId: rossi.companyId })).toBe(0);
  });
});
