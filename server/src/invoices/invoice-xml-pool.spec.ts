import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type Tenant, type TestApi } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { sample } from '../../test/fatturapa-oracle.js';
import { manyAttributesXml, manyLinesInvoiceXml } from '../../test/large-invoices.js';
import { killNewXmlChild, xmlPoolChildren } from '../../test/xml-children.js';
import { waitFor } from '../../test/webhook-receiver.js';
import { invoiceToXml, XmlPool } from './fatturapa/index.js';
import { exampleInvoice } from './invoice-example.js';

/**
 * Invoice XML is read in the XML pool's child processes: a hostile or a very large file is answered on its own and
 * holds up no other request. (How long other tenants wait meanwhile is measured by `npm run bench:xml`.)
 */
describe('invoice XML, read off the event loop', () => {
  let api: TestApi;
  let seller: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    // A test machine can be many times slower than a server: the budget and the connection wait are out of the way
    // here, and so is the rate limit for the list calls made as long as the heavy files take.
    api = await startApi({ XML_TIME_BUDGET_MS: '120000', DB_POOL_WAIT_MS: '10000', RATE_LIMIT_POINTS: '1000000' });
    seller = await createTenant(api, 'Rossi Forniture S.r.l.');
    other = await createTenant(api, 'Verdi Costruzioni S.p.A.');
  });
  afterAll(() => api?.close());

  const postXml = (tenant: Tenant, body: Buffer) =>
    api.http.post(`/api/v1/companies/${tenant.companyId}/documents/invoice`).set(tenant.auth).set('Content-Type', 'application/xml').send(body);
  const listDocuments = (tenant: Tenant) => api.http.get(`/api/v1/companies/${tenant.companyId}/documents?page_size=10`).set(tenant.auth);

  it("refuses the 100,000-attribute file as too complex and creates the 25,000-line invoice, while another company's lists answer", async () => {
    const vat = seller.vatNumber.slice(2);
    const heavy = Promise.all([postXml(seller, manyAttributesXml(100_000)), postXml(seller, manyLinesInvoiceXml(vat, 25_000, 'BIG-1'))]);
    let done = false;
    void heavy.finally(() => (done = true));
    const lists: number[] = [];
    while (!done || lists.length < 5) lists.push((await listDocuments(other)).status);
    const [attributes, lines] = await heavy;

    expectError(attributes, 422, 'invoice_too_complex', undefined, /more than 32 attributes \(line 1\)/);
    expect(lines.status).toBe(201);
    expect(lines.body.data[0]).toMatchObject({ number: 'BIG-1', gross_amount: { amount: '30500.00', currency: 'EUR' } });
    expect(new Set(lists)).toEqual(new Set([200]));
    // A bound for a hang, not a speed: reading 25,000 lines took 54 s on a machine loaded 15 deep on two cores.
  }, 180_000);

  it('reads a DOCTYPE inside a comment as a comment, and refuses a stateful encoding with a clear 400', async () => {
    const xml = invoiceToXml(exampleInvoice({ sellerVat: seller.vatNumber.slice(2), number: 'COMMENT-1' }));
    const commented = xml.replace('?>', '?>\n<!-- exported without <!DOCTYPE fattura SYSTEM "x.dtd"> -->');
    expect((await postXml(seller, Buffer.from(commented))).status).toBe(201);

    const iso2022 = Buffer.from(
      sample('invalid', 'sec_xxe_file_entity.xml')
        .toString('latin1')
        .replace(/encoding="[^"]*"/, 'encoding="ISO-2022-JP"')
        .replace('<!DOCTYPE', '<!DOC\x1b(BTYPE'),
      'latin1',
    );
    const refused = await postXml(seller, iso2022);
    expectError(refused, 400, 'invalid_invoice_xml', undefined, /^The encoding ISO-2022-JP is not accepted: send UTF-8/);
  });
});

describe('invoice XML past its time budget, and a full pool', () => {
  let api: TestApi;
  let seller: Tenant;

  beforeAll(async () => {
    api = await startApi({ XML_WORKERS: '1', XML_QUEUE_LIMIT: '1', XML_TIME_BUDGET_MS: '100' });
    seller = await createTenant(api, 'Rossi Forniture S.r.l.');
  });
  afterAll(() => api?.close());

  const postXml = (body: Buffer) =>
    api.http.post(`/api/v1/companies/${seller.companyId}/documents/invoice`).set(seller.auth).set('Content-Type', 'application/xml').send(body);

  it('answers 422 invoice_too_complex for a file its child could not read within the budget, then reads the next one', async () => {
    // 25,000 lines take several hundred milliseconds to read: well past 100 ms.
    const response = await postXml(manyLinesInvoiceXml(seller.vatNumber.slice(2), 25_000, 'SLOW-1'));
    expectError(response, 422, 'invoice_too_complex', undefined, /longer than 100 ms/);
    // A file a child judges in a moment (no timing of a whole parse on a busy machine): a new child answers.
    expectError(await postXml(sample('invalid', 'sec_xxe_file_entity.xml')), 400, 'invalid_invoice_xml', undefined, /DOCTYPE/);
  });

  it('answers 503 with retry-after, at once, when the child is busy and the queue full', async () => {
    const files = [1, 2, 3, 4].map((n) => manyLinesInvoiceXml(seller.vatNumber.slice(2), 25_000, `FULL-${n}`));
    const responses = await Promise.all(files.map((file) => postXml(file)));
    const busy = responses.filter((response) => response.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const response of busy) {
      expectError(response, 503, 'service_unavailable');
      expect(response.headers['retry-after']).toBe('1');
    }
    // The others were read (and found too slow for this installation's budget): none waited for nothing.
    for (const response of responses.filter((r) => r.status !== 503)) expectError(response, 422, 'invoice_too_complex');
  });
});

describe("the sandbox's SDI notices and a full pool", () => {
  let api: TestApi;
  let seller: Tenant;

  beforeAll(async () => {
    // One reader, one file waiting, and time enough for a 25,000-line file: the pool stays full while it is read. Two
    // invoices in progress at once, so that the second reaches the pool rather than waiting in the invoice lane.
    api = await startApi({ XML_WORKERS: '1', XML_QUEUE_LIMIT: '1', XML_TIME_BUDGET_MS: '120000', DB_POOL_WAIT_MS: '10000', INVOICE_CONCURRENCY: '2' });
    seller = await createTenant(api, 'Rossi Forniture S.r.l.');
  });
  afterAll(() => api?.close());

  const postXml = (body: Buffer) =>
    api.http.post(`/api/v1/companies/${seller.companyId}/documents/invoice`).set(seller.auth).set('Content-Type', 'application/xml').send(body);

  it("answers the sandbox's SDI notices 503 too while the pool is full, sending none, and sends them once it is free", async () => {
    const issued = await api.http
      .post(`/api/v1/companies/${seller.companyId}/documents/invoice?issue=true`)
      .set(seller.auth)
      .send(exampleInvoice({ sellerVat: seller.vatNumber.slice(2), number: 'NOTICES-1' }) as object)
      .expect(201);
    const id = issued.body.data[0].id as string;
    const deliver = () => api.http.post(`/api/v1/companies/${seller.companyId}/sandbox/documents/${id}/sdi-notices`).set(seller.auth);
    // One file in the child, one waiting: the pool is full while the first is read (several hundred milliseconds).
    const pool = api.app.get(XmlPool);
    const heavy = Promise.all([1, 2].map((n) => postXml(manyLinesInvoiceXml(seller.vatNumber.slice(2), 25_000, `HOLD-${n}`))));
    await waitFor(() => pool.usage().waiting === 1, 'the second file waiting for the child', 60_000);
    const busy = await deliver();
    expectError(busy, 503, 'service_unavailable');
    expect(busy.headers['retry-after']).toBe('1');
    await heavy;
    // The 503 took nothing: once the pool is free, the notices are sent, each once (document.updated: SENT, DELIVERED).
    expect((await deliver().expect(200)).body).toMatchObject({ id, status: 'DELIVERED', delivery_status: 'RC', version: 3 });
    const updates = await api.db.query(
      `SELECT payload->>'status' AS status FROM events WHERE type = 'document.updated' AND payload->>'id' = $1 ORDER BY created_at`,
      [id],
    );
    expect(updates.map((row: { status: string }) => row.status)).toEqual(['SENT', 'DELIVERED']);
  });
});

describe('an invoice reader that dies under a file, and a shutdown with invoices in flight', () => {
  /** The API with one reader and time enough for the 25,000-line file on a slow machine. */
  const start = () => startApi({ XML_WORKERS: '1', XML_TIME_BUDGET_MS: '120000', DB_POOL_WAIT_MS: '10000' });
  const postXml = (api: TestApi, tenant: Tenant, body: Buffer) =>
    api.http
      .post(`/api/v1/companies/${tenant.companyId}/documents/invoice`)
      .set(tenant.auth)
      .set('Content-Type', 'application/xml')
      .send(body)
      // Sent now, not when first awaited.
      .then((response) => response);

  it('answers 503 with retry-after when the reader dies under the file, writes nothing, and creates the next invoice', async () => {
    const api = await start();
    try {
      const seller = await createTenant(api, 'Rossi Forniture S.r.l.');
      const vat = seller.vatNumber.slice(2);
      const before = xmlPoolChildren();
      const posting = postXml(api, seller, manyLinesInvoiceXml(vat, 25_000, 'DIES-1'));
      await killNewXmlChild(before);
      const refused = await posting;
      expectError(refused, 503, 'service_unavailable', undefined, /stopped while reading the file/);
      expect(refused.headers['retry-after']).toBe('1');

      const next = await postXml(api, seller, Buffer.from(invoiceToXml(exampleInvoice({ sellerVat: vat, number: 'AFTER-1' }))));
      expect(next.status).toBe(201);
      const listed = await api.http.get(`/api/v1/companies/${seller.companyId}/documents`).set(seller.auth);
      expect(listed.body.data.map((document: { number: string }) => document.number)).toEqual(['AFTER-1']);
    } finally {
      await api.close();
    }
  });

  it('creates the invoice being read when the API is told to stop, then stops', async () => {
    const api = await start();
    const seller = await createTenant(api, 'Rossi Forniture S.r.l.');
    const before = xmlPoolChildren();
    const posting = postXml(api, seller, manyLinesInvoiceXml(seller.vatNumber.slice(2), 25_000, 'STOP-1'));
    // The file is with the reader (its child has started for it) when the shutdown begins.
    const end = Date.now() + 60_000;
    while (!xmlPoolChildren().some((pid) => !before.includes(pid)) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
    const closing = api.close();
    const created = await posting;
    await closing;
    expect(created.status).toBe(201);
    expect(created.body.data[0]).toMatchObject({ number: 'STOP-1', gross_amount: { amount: '30500.00', currency: 'EUR' } });
  });
});
