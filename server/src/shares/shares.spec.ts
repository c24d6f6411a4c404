import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { waitFor } from '../../test/webhook-receiver.js';
import { startWorker } from '../../test/worker.js';
import { ManualClock } from '../common/clock/drivers/manual.driver.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { StoredInvoice } from '../invoices/invoice.entity.js';
import type { ErrorCode } from '../common/errors/error-codes.js';

/** What the test SMTP server does with the next message: take it, or refuse it with an SMTP reply. */
type Verdict = 'accept' | { code: number; message: string };

describe('share-invoice e-mails', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  const clock = new ManualClock();
  let smtp: SMTPServer;
  let rossi: Tenant;
  let verdi: Tenant;
  const mails: ParsedMail[] = [];
  /** Verdicts for the next DATA commands, in order; once empty, every message is accepted. */
  const verdicts: Verdict[] = [];
  let refused = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const verdict = verdicts.shift() ?? 'accept';
          if (verdict !== 'accept') {
            refused += 1;
            return callback(Object.assign(new Error(verdict.message), { responseCode: verdict.code }));
          }
          simpleParser(Buffer.concat(chunks)).then(
            (mail) => {
              mails.push(mail);
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      // As in production: the retry test moves the worker's clock instead of waiting.
      MAIL_RETRY_SCHEDULE: '5m,30m',
      MAIL_FROM: 'Flusso <no-reply@flusso.test>',
      SDI_SANDBOX_DELAYS: '100ms,100ms',
    };
    api = await startApi(env);
    worker = await startWorker(api.config.databaseUrl, env, { clock });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
  });

  afterAll(async () => {
    await worker.close();
    await api.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  let invoiceNumber = 0;
  /** An e-invoice of the tenant, issued (or left a DRAFT), through the API as an integrator would. */
  async function invoice(tenant: Tenant, issue = true): Promise<{ id: string; number: string; file_name: string }> {
    invoiceNumber += 1;
    const number = `FT-${invoiceNumber}`;
    const response = await api.http
      .post(`/api/v1/companies/${tenant.companyId}/documents/invoice?issue=${issue}`)
      .set(tenant.auth)
      .send(exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number }) as object);
    expect(response.status).toBe(201);
    const document = response.body.data[0];
    if (issue) await waitFor(async () => (await readDocument(tenant, document.id)).status === 'SENT', 'the SDI sandbox to take the invoice');
    return document;
  }
  const readDocument = async (tenant: Tenant, id: string) =>
    (await api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${id}`).set(tenant.auth).expect(200)).body;

  const shareUrl = (tenant: Tenant, documentId: string) => `/api/v1/companies/${tenant.companyId}/documents/${documentId}/share-invoice`;
  const share = (tenant: Tenant, documentId: string, body: unknown) =>
    api.http
      .post(shareUrl(tenant, documentId))
      .set(tenant.auth)
      .send(body as object);
  const readShare = async (location: string) => (await api.http.get(location).set(rossi.auth).expect(200)).body;
  const addressedTo = (address: string) => (mail: ParsedMail) => [mail.to ?? []].flat().some((to) => to.value.some((v) => v.address === address));
  const mailTo = (address: string) => () => mails.some(addressedTo(address));
  const mailFor = (address: string) => mails.filter(addressedTo(address));

  it('202: the courtesy copy reaches the SMTP server with Italian defaults, the invoice and its XML attached', async () => {
    const document = await invoice(rossi);
    const response = await share(rossi, document.id, { to: 'cliente@bianchi.test', reply_to: 'fatture@rossi.test' });
    expect(response.status).toBe(202);
    expect(response.headers.location).toBe(`/api/v1/companies/${rossi.companyId}/documents/${document.id}/shares/${response.body.id}`);
    expect(response.body).toMatchObject({
      document_id: document.id,
      to: ['cliente@bianchi.test'],
      reply_to: 'fatture@rossi.test',
      subject: expect.stringMatching(new RegExp(`^Fattura n\\. ${document.number} del \\d{2}/\\d{2}/\\d{4} - Rossi Forniture S\\.r\\.l\\.$`)),
      status: 'QUEUED',
      failure_reason: null,
    });

    await waitFor(mailTo('cliente@bianchi.test'), 'the e-mail');
    const [mail] = mailFor('cliente@bianchi.test');
    expect(mail.from?.value).toEqual([{ name: 'Flusso', address: 'no-reply@flusso.test' }]);
    expect(mail.replyTo?.value).toEqual([{ name: '', address: 'fatture@rossi.test' }]);
    expect(mail.subject).toBe(response.body.subject);
    expect(mail.text).toMatch(/^Gentile cliente,/);
    expect(mail.text).toContain(`Fattura n. ${document.number}`);
    expect(mail.text).toContain('Totale documento');
    expect(mail.html).toContain('<h3 style="font-size:15px">Riepilogo IVA</h3>');
    expect(mail.html).toContain('Rossi Forniture S.r.l.');

    const stored = await api.db.getRepository(StoredInvoice).findOneByOrFail({ documentId: document.id });
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0].filename).toBe(document.file_name);
    expect(mail.attachments[0].contentType).toBe('application/xml');
    expect(Buffer.compare(mail.attachments[0].content, stored.xml)).toBe(0);

    // The link in the message serves the same XML without an API key.
    const link = /(https?:\/\/\S+\/invoice-files\/\S+)/.exec(mail.text ?? '')![1];
    const file = await api.http
      .get(new URL(link).pathname + new URL(link).search)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body as Buffer, stored.xml)).toBe(0);

    await waitFor(async () => (await readShare(response.headers.location)).status === 'SENT', 'the share to read as sent');
    expect(await readShare(response.headers.location)).toMatchObject({ status: 'SENT', attempts: 1, completed_at: expect.any(String) });
  });

  it("uses the integrator's subject and message, to several recipients once each", async () => {
    const document = await invoice(rossi);
    const response = await share(rossi, document.id, {
      to: ['uno@bianchi.test', 'due@bianchi.test', 'UNO@bianchi.test'],
      reply_to: 'fatture@rossi.test',
      subject: 'La sua fattura di marzo',
      body: 'Buongiorno,\n\necco la fattura <di marzo>.',
    });
    expect(response.status).toBe(202);
    expect(response.body.to).toEqual(['uno@bianchi.test', 'due@bianchi.test']);
    await waitFor(mailTo('due@bianchi.test'), 'the e-mail');
    const [mail] = mailFor('due@bianchi.test');
    expect(mail.subject).toBe('La sua fattura di marzo');
    expect(mail.text).toMatch(/^Buongiorno,\n\necco la fattura <di marzo>\./);
    expect(mail.html).toContain('ecco la fattura &lt;di marzo&gt;.');
    expect(mail.to).toMatchObject({ value: [{ address: 'uno@bianchi.test' }, { address: 'due@bianchi.test' }] });
  });

  it('a temporary refusal is retried: the message is sent once, after two attempts', async () => {
    const document = await invoice(rossi);
    verdicts.push({ code: 451, message: 'Try again later' });
    const before = refused;
    const response = await share(rossi, document.id, { to: 'ritenta@bianchi.test', reply_to: 'fatture@rossi.test' });
    expect(response.status).toBe(202);
    await waitFor(async () => (await readShare(response.headers.location)).attempts === 1, 'the first attempt');
    // Queued while it waits for its retry, five minutes later on the worker's clock, saying why.
    expect(await readShare(response.headers.location)).toMatchObject({ status: 'QUEUED', failure_reason: expect.stringContaining('451 Try again later') });
    await clock.advance(6 * 60_000);
    await waitFor(async () => (await readShare(response.headers.location)).status === 'SENT', 'the share to be sent');
    expect(refused).toBe(before + 1);
    expect(mailFor('ritenta@bianchi.test')).toHaveLength(1);
    expect(await readShare(response.headers.location)).toMatchObject({ status: 'SENT', attempts: 2, failure_reason: null });
  });

  it('a permanent refusal fails the share at once, with the reason', async () => {
    const document = await invoice(rossi);
    verdicts.push({ code: 550, message: 'Mailbox unavailable' });
    const response = await share(rossi, document.id, { to: 'nessuno@bianchi.test', reply_to: 'fatture@rossi.test' });
    await waitFor(async () => (await readShare(response.headers.location)).status === 'FAILED', 'the share to fail');
    const failed = await readShare(response.headers.location);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 1, completed_at: expect.any(String) });
    expect(failed.failure_reason).toContain('Mailbox unavailable');
    expect(mailFor('nessuno@bianchi.test')).toHaveLength(0);
  });

  it("lists a document's shares, newest first, and reads one", async () => {
    const document = await invoice(rossi);
    const first = await share(rossi, document.id, { to: 'a@bianchi.test', reply_to: 'fatture@rossi.test' });
    const second = await share(rossi, document.id, { to: 'b@bianchi.test', reply_to: 'fatture@rossi.test' });
    const list = await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${document.id}/shares`).set(rossi.auth).expect(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body.page).toEqual({ cursor: null, size: 25 });
    const other = await invoice(rossi);
    expectError(await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${other.id}/shares/${first.body.id}`).set(rossi.auth), 404, 'not_found');
  });

  describe('refusals', () => {
    let issued: { id: string };
    beforeAll(async () => {
      issued = await invoice(rossi);
    });
    const valid = { to: 'cliente@bianchi.test', reply_to: 'fatture@rossi.test' };

    it.each([
      ['no to', { reply_to: 'fatture@rossi.test' }, 400, 'bad_request', '/to'],
      ['no reply_to', { to: 'cliente@bianchi.test' }, 400, 'bad_request', '/reply_to'],
      ['to a number', { ...valid, to: 5 }, 400, 'bad_request', '/to'],
      ['to an empty list', { ...valid, to: [] }, 422, 'unprocessable_entity', '/to'],
      ['to not an address', { ...valid, to: 'cliente' }, 422, 'unprocessable_entity', '/to'],
      ['a bad address in the list', { ...valid, to: ['ok@bianchi.test', 'not an address'] }, 422, 'unprocessable_entity', '/to/1'],
      ['a number in the list', { ...valid, to: ['ok@bianchi.test', 7] }, 400, 'bad_request', '/to/1'],
      ['too many recipients', { ...valid, to: Array.from({ length: 21 }, (_, i) => `r${i}@bianchi.test`) }, 422, 'unprocessable_entity', '/to'],
      ['reply_to not an address', { ...valid, reply_to: 'fatture' }, 422, 'unprocessable_entity', '/reply_to'],
      ['reply_to a list', { ...valid, reply_to: ['fatture@rossi.test'] }, 400, 'bad_request', '/reply_to'],
      ['a subject of two lines', { ...valid, subject: 'Fattura\r\nBcc: victim@example.test' }, 422, 'unprocessable_entity', '/subject'],
      ['a subject too long', { ...valid, subject: 'x'.repeat(201) }, 422, 'unprocessable_entity', '/subject'],
      ['an empty subject (the e-mail would have none)', { ...valid, subject: '' }, 422, 'unprocessable_entity', '/subject'],
      ['a blank subject', { ...valid, subject: '  \t ' }, 422, 'unprocessable_entity', '/subject'],
      ['a null body', { ...valid, body: null }, 400, 'bad_request', '/body'],
      ['an unknown member', { ...valid, cc: 'x@bianchi.test' }, 400, 'bad_request', '/cc'],
    ] as Array<[string, object, number, ErrorCode, string]>)('%s', async (_name, body, status, code, pointer) => {
      expectError(await share(rossi, issued.id, body), status, code, pointer);
    });

    it('a DRAFT invoice, or one the SDI has not taken yet: 422 invalid_state', async () => {
      const draft = await invoice(rossi, false);
      expectError(await share(rossi, draft.id, valid), 422, 'invalid_state', undefined, /DRAFT: issue it first/);
      await api.http.post(`/api/v1/companies/${rossi.companyId}/documents/${draft.id}/issue`).set(rossi.auth).expect(200);
      const response = await share(rossi, draft.id, valid);
      if (response.status !== 202) expectError(response, 422, 'invalid_state', undefined, /not yet taken by the SDI/);
    });

    it('a document that is not an e-invoice: 404', async () => {
      const fixtures = new Fixtures(api.db, rossi.companyId);
      const plain = await fixtures.document();
      expectError(await share(rossi, plain.id, valid), 404, 'not_found');
    });

    it("another company's invoice: 403; an unknown one: 404; nothing is sent", async () => {
      const theirs = await invoice(verdi);
      const sentBefore = mails.length;
      expectError(await share(rossi, theirs.id, valid), 403, 'forbidden');
      expectError(await share(rossi, '00000000-0000-4000-8000-000000000000', valid), 404, 'not_found');
      expectError(await share(rossi, 'not-a-uuid', valid), 404, 'not_found');
      expect(await api.db.query('SELECT count(*)::int AS n FROM invoice_shares WHERE document_id = $1', [theirs.id])).toEqual([{ n: 0 }]);
      expect(mails.length).toBe(sentBefore);
    });
  });
});
