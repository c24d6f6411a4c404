import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { createTenant, startApi, type TestApi, type Tenant } from '../../../test/api.js';
import { expectError } from '../../../test/expect.js';
import { startWorker } from '../../../test/worker.js';
import { DomainEvent } from '../../common/events/event.entity.js';
import { DOCUMENT_TRANSITIONS } from '../../documents/document-transitions.js';
import { DOCUMENT_STATUSES, type DocumentStatus } from '../../documents/document.enums.js';
import { invoiceToXml } from '../fatturapa/index.js';
import { exampleInvoice, type ExampleOptions } from '../invoice-example.js';
import { signInvoiceLink } from '../invoice-link.js';
import { SignedFiles } from '../../../test/signed-files.js';
import { SDI_QUEUE } from './sdi-channel.port.js';
import { SdiDispatcher, TRANSMIT_JOB } from './sdi-dispatcher.js';
import { SdiNotifications } from './sdi-notifications.js';
import { SandboxSdiChannel } from './drivers/sandbox.driver.js';

const FINAL: DocumentStatus[] = ['DELIVERED', 'NOT_DELIVERED', 'DISCARDED', 'REFUSED'];

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the SDI sandbox and the document lifecycle (real worker, BullMQ)', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let rossi: Tenant;
  let pa: Tenant;

  beforeAll(async () => {
    api = await startApi();
    worker = await startWorker(api.config.databaseUrl, { SDI_SANDBOX_DELAYS: '150ms,150ms' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    pa = await createTenant(api, 'Fornitore PA S.r.l.');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  const documentUrl = (tenant: Tenant, id: string) => `/api/v1/companies/${tenant.companyId}/documents/${id}`;
  const send = async (tenant: Tenant, options: ExampleOptions & { format?: 'FPA12' }, query = '?issue=true') => {
    const invoice = exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), ...options });
    if (options.format === 'FPA12') {
      invoice.versione = 'FPA12';
      invoice.fattura_elettronica_header.dati_trasmissione.formato_trasmissione = 'FPA12';
    }
    const response = await api.http
      .post(`/api/v1/companies/${tenant.companyId}/documents/invoice${query}`)
      .set(tenant.auth)
      .set('Content-Type', 'application/xml')
      .send(invoiceToXml(invoice));
    expect(response.status).toBe(201);
    return response.body.data[0] as { id: string; status: string };
  };
  const document = async (tenant: Tenant, id: string) => (await api.http.get(documentUrl(tenant, id)).set(tenant.auth).expect(200)).body;
  const settled = (tenant: Tenant, id: string, final: DocumentStatus) =>
    until(
      `${id} to be ${final}`,
      () => document(tenant, id),
      (d) => d.status === final,
    );
  const statusEvents = async (id: string) =>
    (await api.db.getRepository(DomainEvent).find({ where: { type: 'document.updated' }, order: { createdAt: 'ASC' } }))
      .filter((e) => e.payload.id === id)
      .map((e) => [e.payload.version, e.payload.status, e.payload.delivery_status]);

  it('delivers an ordinary invoice: CREATED → SENT → DELIVERED, one document.updated per change, versions in order', async () => {
    const created = await send(rossi, { number: 'L-1' });
    expect(created.status).toBe('CREATED');
    const delivered = await settled(rossi, created.id, 'DELIVERED');
    expect(delivered).toMatchObject({ delivery_status: 'RC', delivery_date: expect.any(String), version: 3 });
    expect(await statusEvents(created.id)).toEqual([
      [2, 'SENT', null],
      [3, 'DELIVERED', 'RC'],
    ]);
  });

  it("reaches every outcome on the sandbox's triggers", async () => {
    const cases: Array<[Tenant, ExampleOptions & { format?: 'FPA12' }, DocumentStatus, string]> = [
      [rossi, { number: 'L-2', codiceDestinatario: 'NODELIV' }, 'NOT_DELIVERED', 'MC'],
      [rossi, { number: 'L-3', codiceDestinatario: 'DISCARD' }, 'DISCARDED', 'NS 00311'],
      [pa, { number: 'L-4', codiceDestinatario: 'UFABCD', format: 'FPA12' }, 'DELIVERED', 'RC'],
      [pa, { number: 'L-5', codiceDestinatario: 'NODELI', format: 'FPA12' }, 'NOT_DELIVERED', 'AT'],
      [pa, { number: 'L-6', codiceDestinatario: 'DISCAR', format: 'FPA12' }, 'DISCARDED', 'NS 00311'],
      [pa, { number: 'L-7', codiceDestinatario: 'REFUSE', format: 'FPA12' }, 'REFUSED', 'NE EC02'],
    ];
    const sent = await Promise.all(cases.map(async ([tenant, options]) => (await send(tenant, options)).id));
    for (const [i, [tenant, , status, deliveryStatus]] of cases.entries()) {
      const final = await settled(tenant, sent[i], status);
      expect([final.number, final.delivery_status]).toEqual([cases[i][1].number, deliveryStatus]);
      const history = (await statusEvents(sent[i])).map(([, s]) => s);
      expect(history).toEqual(status === 'REFUSED' ? ['SENT', 'DELIVERED', 'REFUSED'] : ['SENT', status]);
    }
    // A discarded invoice counts as never issued: the same number may be sent again.
    const again = await send(rossi, { number: 'L-3' });
    await settled(rossi, again.id, 'DELIVERED');
  });

  it('issues a draft later, and sends it then', async () => {
    const draft = await send(rossi, { number: 'L-8' }, '');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await document(rossi, draft.id)).status).toBe('DRAFT');
    await api.http
      .post(`${documentUrl(rossi, draft.id)}/issue`)
      .set(rossi.auth)
      .expect(200);
    await settled(rossi, draft.id, 'DELIVERED');
  });

  it('refuses any status change outside the transitions table', async () => {
    const notifications = worker.get(SdiNotifications);
    const draft = await send(rossi, { number: 'L-9' }, '');
    expect(await notifications.apply(draft.id, { kind: 'RC' })).toBe('refused');
    expect(await notifications.apply(draft.id, { kind: 'sent' })).toBe('refused');
    const delivered = await send(rossi, { number: 'L-10' });
    await settled(rossi, delivered.id, 'DELIVERED');
    expect(await notifications.apply(delivered.id, { kind: 'NS', errors: ['00404'] })).toBe('refused');
    expect(await notifications.apply(delivered.id, { kind: 'RC' })).toBe('already');
    expect((await document(rossi, delivered.id)).version).toBe(3);
    // The table itself: final statuses lead nowhere, and every status is in it.
    expect(Object.keys(DOCUMENT_TRANSITIONS).sort()).toEqual([...DOCUMENT_STATUSES].sort());
    for (const status of ['NOT_DELIVERED', 'DISCARDED', 'REFUSED'] as const) expect(DOCUMENT_TRANSITIONS[status]).toEqual([]);
    expect(FINAL.every((s) => DOCUMENT_STATUSES.includes(s))).toBe(true);
  });

  it('links the XML once sent: the link works without a key, and fails when expired or altered', async () => {
    const created = await send(rossi, { number: 'L-11' });
    const invoiceUrl = `${documentUrl(rossi, created.id)}/invoice`;
    await settled(rossi, created.id, 'DELIVERED');
    const read = await api.http.get(invoiceUrl).set(rossi.auth).expect(200);
    const link = new URL(read.body.xml_url);
    expect(link.pathname).toBe(`/api/v1/invoice-files/${created.id}`);
    const file = await api.http.get(link.pathname + link.search).expect(200);
    expect(file.headers['content-type']).toMatch(/^application\/xml/);
    expect(file.headers['content-disposition']).toMatch(/_0000\w\.xml"$/);
    expect(file.text ?? file.body.toString()).toContain('<Numero>L-11</Numero>');

    const altered = new URL(link);
    altered.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    expectError(await api.http.get(altered.pathname + altered.search), 403, 'forbidden', undefined, /signature/);
    const otherDocument = link.pathname.replace(created.id, (await send(rossi, { number: 'L-12' })).id) + link.search;
    expectError(await api.http.get(otherDocument), 403, 'forbidden');
    const expired = signInvoiceLink(api.config.invoices.linkKey, created.id, Math.floor(Date.now() / 1000) - 1);
    expectError(await api.http.get(`/api/v1${expired}`), 403, 'forbidden', undefined, /expired/);
    expectError(await api.http.get(link.pathname), 403, 'forbidden');
  });
});

describe('signed invoice files (.p7m) through the API and the SDI sandbox', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let files: SignedFiles;
  let tenant: Tenant;

  beforeAll(async () => {
    api = await startApi();
    worker = await startWorker(api.config.databaseUrl, { SDI_SANDBOX_DELAYS: '150ms,150ms' });
    files = SignedFiles.create();
    tenant = await createTenant(api, 'Firma Digitale S.r.l.');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    files?.remove();
  });

  const xmlOf = (number: string) => Buffer.from(invoiceToXml(exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number })));
  const post = (body: Buffer | string, type = 'application/pkcs7-mime') =>
    api.http.post(`/api/v1/companies/${tenant.companyId}/documents/invoice?issue=true`).set(tenant.auth).set('Content-Type', type).send(body);

  it('takes the envelope, sends it to the SDI as received, and serves both the envelope and the XML it carries', async () => {
    const xml = xmlOf('P7M-1');
    const envelope = files.sign(xml);
    const created = await post(envelope).expect(201);
    const document = created.body.data[0];
    expect(document.file_name).toMatch(/_\w{5}\.xml\.p7m$/);
    await until(
      'delivery',
      () => api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${document.id}`).set(tenant.auth),
      (r) => r.body.status === 'DELIVERED',
    );
    const read = await api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${document.id}/invoice`).set(tenant.auth).expect(200);
    expect(read.body.fattura_elettronica_body[0].dati_generali.dati_generali_documento.numero).toBe('P7M-1');

    const signed = new URL(read.body.signed_file_url);
    const asReceived = await api.http
      .get(signed.pathname + signed.search)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(asReceived.status).toBe(200);
    expect(asReceived.headers['content-type']).toMatch(/^application\/pkcs7-mime/);
    expect(asReceived.headers['content-disposition']).toMatch(/\.xml\.p7m"$/);
    expect(Buffer.compare(asReceived.body as Buffer, envelope)).toBe(0);

    const carried = new URL(read.body.xml_url);
    const file = await api.http.get(carried.pathname + carried.search).expect(200);
    expect(file.headers['content-type']).toMatch(/^application\/xml/);
    expect(file.headers['content-disposition']).toMatch(/\.xml"$/);
    expect(Buffer.from(file.text ?? file.body.toString())).toEqual(xml);
    // The form is part of what the link signs: the XML link cannot be turned into the envelope's.
    carried.searchParams.set('form', 'p7m');
    expectError(await api.http.get(carried.pathname + carried.search), 403, 'forbidden', undefined, /signature/);
  });

  it('takes the envelope in base64, as ERPs send it', async () => {
    const base64 = files
      .sign(xmlOf('P7M-2'))
      .toString('base64')
      .replace(/(.{76})/g, '$1\r\n');
    expect((await post(base64).expect(201)).body.data[0].number).toBe('P7M-2');
  });

  it('refuses an envelope whose content changed after signing, a detached signature and bytes that are no envelope, as 422 invalid_signed_file', async () => {
    const tampered = files.sign(xmlOf('P7M-3'));
    tampered.write('P7M-4', tampered.indexOf(Buffer.from('P7M-3')));
    expectError(await post(tampered), 422, 'invalid_signed_file', undefined, /does not hold/);
    expectError(await post(files.sign(xmlOf('P7M-5'), { detached: true })), 422, 'invalid_signed_file', undefined, /detached/);
    expectError(await post(xmlOf('P7M-6')), 422, 'invalid_signed_file', undefined, /not a signed file/);
    // The envelope's content goes through every check an XML file does: a duplicate is the SDI's 00404.
    const again = files.sign(xmlOf('P7M-1'));
    expectError(await post(again), 422, 'sdi_check_failed', '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Numero', /00404/);
  });
});

describe("the SDI sandbox's notices when Redis loses their jobs", () => {
  let api: TestApi;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    api = await startApi();
    // Long enough to take the notice's job away before it runs.
    worker = await startWorker(api.config.databaseUrl, { SDI_SANDBOX_DELAYS: '3s,3s' });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('keeps what the sandbox owes in PostgreSQL: a notice whose job is gone is queued again by the sweeper and arrives', async () => {
    const tenant = await createTenant(api);
    const invoice = exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number: 'R-1' });
    const created = await api.http.post(`/api/v1/companies/${tenant.companyId}/documents/invoice?issue=true`).set(tenant.auth).send(invoice).expect(201);
    const id: string = created.body.data[0].id;
    const status = async () => (await api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${id}`).set(tenant.auth).expect(200)).body.status;
    await until('the document to be SENT', status, (s) => s === 'SENT');
    const owed = () => api.db.query('SELECT step FROM sdi_sandbox_notices WHERE document_id = $1', [id]);
    expect(await owed()).toEqual([{ step: 0 }]);

    // Redis loses the waiting and delayed jobs, the notice's with them.
    const queue = worker.get<Queue>(getQueueToken(SDI_QUEUE));
    await queue.drain(true);
    expect(await queue.getJob(`sandbox-${id}-0`)).toBeUndefined();

    const sandbox = worker.get(SandboxSdiChannel);
    expect(await sandbox.sweep()).toBe(1);
    expect(await sandbox.sweep()).toBe(0);
    await until('the document to be DELIVERED', status, (s) => s === 'DELIVERED');
    // The notice is applied, then no longer owed: two statements of the job, so the second may come a moment later.
    await until('the notice to be no longer owed', owed, (rows) => rows.length === 0);
    expect(await status()).toBe('DELIVERED');
  });
});

describe('the production SDI channel', () => {
  let api: TestApi;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    api = await startApi();
    worker = await startWorker(api.config.databaseUrl, { SDI_CHANNEL: 'production' });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('fails the transmission with "SDI channel not configured" and leaves the document CREATED', async () => {
    const tenant = await createTenant(api);
    const invoice = exampleInvoice({ sellerVat: tenant.vatNumber.slice(2) });
    const created = await api.http.post(`/api/v1/companies/${tenant.companyId}/documents/invoice?issue=true`).set(tenant.auth).send(invoice).expect(201);
    const id = created.body.data[0].id;
    const queue = worker.get<Queue>(getQueueToken(SDI_QUEUE));
    const job = await until(
      'the transmission to fail',
      () => queue.getJob(`transmit-${id}`),
      (j) => Boolean(j && j.attemptsMade > 0),
    );
    expect(job!.failedReason).toMatch(/^SDI channel not configured/);
    const document = await api.http.get(`/api/v1/companies/${tenant.companyId}/documents/${id}`).set(tenant.auth).expect(200);
    expect(document.body).toMatchObject({ status: 'CREATED', version: 1 });
  });

  it('has the sweeper try again a transmission whose job failed every attempt', async () => {
    const tenant = await createTenant(api);
    const invoice = exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number: 'R-2' });
    const created = await api.http.post(`/api/v1/companies/${tenant.companyId}/documents/invoice?issue=true`).set(tenant.auth).send(invoice).expect(201);
    const id = created.body.data[0].id;
    const queue = worker.get<Queue>(getQueueToken(SDI_QUEUE));
    const jobId = `transmit-${id}`;
    await until(
      'the transmission to be tried',
      () => queue.getJob(jobId),
      (j) => Boolean(j && j.attemptsMade > 0),
    );
    // Its last attempt comes at once: the job fails for good (the channel was down through all ten).
    await queue.remove(jobId);
    await queue.add(TRANSMIT_JOB, { documentId: id }, { jobId, attempts: 1 });
    const failed = await until(
      'the job to fail for good',
      () => queue.getJob(jobId),
      (j) => Boolean(j?.finishedOn),
    );
    expect(await failed!.isFailed()).toBe(true);

    await api.db.query(`UPDATE invoices SET transmission_queued_at = now() - interval '1 hour' WHERE document_id = $1`, [id]);
    expect(await worker.get(SdiDispatcher).sweep()).toBe(1);
    const retried = await until(
      'the transmission to be tried again',
      () => queue.getJob(jobId),
      (j) => Boolean(j?.finishedOn && j.finishedOn > failed!.finishedOn!),
    );
    expect(retried!.failedReason).toMatch(/^SDI channel not configured/);
  });
});
