import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { importTransactions } from '../imports/transactions-import.js';
import { invoiceToXml, type Invoice } from '../invoices/fatturapa/index.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { InvoicesService } from '../invoices/invoices.service.js';

interface Listed {
  id: string;
  type: string;
  event: string;
  api_version: string;
  company_id: string;
  created_at: string;
  data: Record<string, unknown> & { id: string };
}

/** A supplier's invoice to `buyer`, as the SDI would hand it over. */
function supplierInvoice(buyer: Tenant, number: string): Invoice {
  const invoice = exampleInvoice({ sellerVat: '01234567890', number });
  invoice.fattura_elettronica_header.cessionario_committente.dati_anagrafici = {
    id_fiscale_iva: { id_paese: 'IT', id_codice: buyer.vatNumber.slice(2) },
    anagrafica: { denominazione: 'Acquirente S.r.l.' },
  };
  return invoice;
}

describe('events: recorded with every change, listed in commit order', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let account: Account;

  beforeAll(async () => {
    // Lists are read page by page, and again until the events show: many more calls than a minute's rate allows.
    api = await startApi({ RATE_LIMIT_POINTS: '1000000' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    account = await new Fixtures(api.db, rossi.companyId).account({ nickname: 'Intesa' });
  });
  afterAll(() => api.close());

  const base = (tenant: Tenant) => `/api/v1/companies/${tenant.companyId}`;
  /** The outbox's rows of a type about one object (its payload's id), oldest first: what was recorded, whatever the list shows. */
  const recorded = async (companyId: string, type: string, objectId?: string): Promise<DomainEvent[]> =>
    (await api.db.getRepository(DomainEvent).find({ where: { companyId, type }, order: { position: 'ASC' } })).filter(
      (event) => objectId === undefined || event.payload.id === objectId,
    );
  /** Every page of the list from `cursor` on, with the cursor to resume from. */
  const listAll = async (
    tenant: Tenant,
    query = '',
    cursor: string | null = null,
    auth = tenant.auth,
  ): Promise<{ events: Listed[]; cursor: string | null }> => {
    const events: Listed[] = [];
    for (;;) {
      const page = await api.http
        .get(`${base(tenant)}/events?page_size=7${query}${cursor ? `&cursor=${cursor}` : ''}`)
        .set(auth)
        .expect(200);
      events.push(...page.body.data);
      if (!page.body.page.cursor) return { events, cursor };
      cursor = page.body.page.cursor;
    }
  };
  /**
   * The list shows an event once every transaction older than its own has ended, in the whole cluster: another test
   * file's long transaction can hold it back for a moment, so a test waits for the events it expects.
   */
  const listedEventually = async (tenant: Tenant, ids: string[], query = ''): Promise<Listed[]> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { events } = await listAll(tenant, query);
      if (ids.every((id) => events.some((event) => event.id === id)) || Date.now() > deadline) return events;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const createInvoice = async (number: string) =>
    (
      await api.http
        .post(`${base(rossi)}/documents/invoice`)
        .set(rossi.auth)
        .send(exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number }) as object)
        .expect(201)
    ).body.data[0] as { id: string; flows: Array<{ id: string }> };

  it('records document.created once when an invoice is created, with the document as GET answers it, every member expanded', async () => {
    const document = await createInvoice('EV-1');
    const [created] = await recorded(rossi.companyId, 'document.created', document.id);
    expect((await recorded(rossi.companyId, 'document.created', document.id)).length).toBe(1);
    const read = await api.http
      .get(`${base(rossi)}/documents/${document.id}?expand=category,counterpart,flows,sectional,subcategory`)
      .set(rossi.auth)
      .expect(200);
    expect(created.payload).toEqual(read.body);
    expect(created.payload).toEqual(document);

    const listed = await listedEventually(rossi, [created.id], `&filter[document_id]=${document.id}`);
    expect(listed).toEqual([
      {
        id: created.id,
        type: 'document.created',
        event: 'document.created',
        api_version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        company_id: rossi.companyId,
        created_at: created.createdAt.toISOString(),
        data: read.body,
      },
    ]);
    const one = await api.http
      .get(`${base(rossi)}/events/${created.id}`)
      .set(rossi.auth)
      .expect(200);
    expect(one.body).toEqual(listed[0]);
  });

  it('records nothing for a creation that rolls back', async () => {
    const invoices = api.app.get(InvoicesService);
    const before = (await recorded(rossi.companyId, 'document.created')).length;
    await expect(
      api.db.transaction(async (manager) => {
        await invoices.create(
          rossi.companyId,
          { kind: 'json', value: exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'EV-9' }) },
          { issue: false, reconciliationIdentifier: null },
          manager,
        );
        expect((await manager.getRepository(DomainEvent).findBy({ companyId: rossi.companyId, type: 'document.created' })).length).toBe(before + 1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await recorded(rossi.companyId, 'document.created')).length).toBe(before);
    // A duplicate is refused after its insert failed: nothing recorded either.
    await api.http
      .post(`${base(rossi)}/documents/invoice`)
      .set(rossi.auth)
      .send(exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'EV-1' }) as object)
      .expect(422);
    expect((await recorded(rossi.companyId, 'document.created')).length).toBe(before);
  });

  it("records document.created for a supplier's invoice received from the SDI (XML)", async () => {
    const response = await api.http
      .post(`${base(rossi)}/sandbox/received-invoices`)
      .set(rossi.auth)
      .set('Content-Type', 'application/xml')
      .send(invoiceToXml(supplierInvoice(rossi, 'R-77')))
      .expect(201);
    const [document] = response.body.data;
    const events = await recorded(rossi.companyId, 'document.created', document.id);
    expect(events.map((event) => event.payload)).toEqual([document]);
  });

  it('records transaction.created for each new transaction, reconciliation.created and .deleted with the reconciliation', async () => {
    const invoice = await api.http
      .post(`${base(rossi)}/documents/invoice?issue=true&reconciliation_identifier=RF18-0999`)
      .set(rossi.auth)
      .send(exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'EV-2' }) as object)
      .expect(201);
    const movements = await api.http
      .post(`${base(rossi)}/sandbox/transactions`)
      .set(rossi.auth)
      .send({
        account_id: account.id,
        transactions: [
          { amount: '100.00', date: '2026-03-21', description: 'BONIFICO CAUS. RF18-0999' },
          { amount: '-12.50', date: '2026-03-22', description: 'Commissioni' },
        ],
      })
      .expect(201);
    const [payment, fee] = movements.body.data;
    for (const transaction of [payment, fee]) {
      const events = await recorded(rossi.companyId, 'transaction.created', transaction.id);
      expect(events.length).toBe(1);
      const read = await api.http
        .get(`${base(rossi)}/transactions/${transaction.id}?expand=reconciliations`)
        .set(rossi.auth)
        .expect(200);
      // As it was created: no reconciliation yet (the one by reconciliation_identifier came after, with its own event).
      expect(events[0].payload).toEqual({ ...read.body, reconciliations: [] });
    }

    const [reconciliation] = payment.reconciliations as Array<{ id: string }>;
    const created = await recorded(rossi.companyId, 'reconciliation.created', reconciliation.id);
    const read = await api.http
      .get(`${base(rossi)}/reconciliations/${reconciliation.id}?expand=flow,transaction`)
      .set(rossi.auth)
      .expect(200);
    expect(created.map((event) => event.payload)).toEqual([read.body]);
    expect(read.body.flow.document_id).toBe(invoice.body.data[0].id);

    await api.http
      .delete(`${base(rossi)}/reconciliations/${reconciliation.id}`)
      .set(rossi.auth)
      .expect(204);
    const deleted = await recorded(rossi.companyId, 'reconciliation.deleted', reconciliation.id);
    expect(deleted.map((event) => event.payload)).toEqual([read.body]);
    // In one transaction with the document's change, after it.
    const [updated] = (await recorded(rossi.companyId, 'document.updated', invoice.body.data[0].id)).slice(-1);
    expect(updated.transactionId).toBe(deleted[0].transactionId);
    expect(BigInt(updated.position)).toBeLessThan(BigInt(deleted[0].position));
  });

  it('records one transaction.created per imported row, in one statement, its data as GET answers it, and none for a refused file', async () => {
    const before = (await recorded(rossi.companyId, 'transaction.created')).length;
    // One row in three carries every optional column, with amounts of other scales and an instant off UTC.
    const rows = Array.from({ length: 300 }, (_, i) =>
      i % 3
        ? `2026-03-02,${i + 1}.00,EUR,IMPORT EV ${i},,,,`
        : `2026-03-02,-${i}.5${i % 7},EUR,IMPORT EV ${i},2026-03-04,2026-03-02T23:59:58.123+02:00,Rossi ${i} S.r.l.,Bonifico ${i}`,
    );
    const csv = ['date,amount,currency,description,value_date,booking_date_time,counterpart_name,clean_description', ...rows].join('\n');
    await importTransactions(api.db, { companyId: rossi.companyId, accountId: account.id, csv });
    const events = await recorded(rossi.companyId, 'transaction.created');
    expect(events.length).toBe(before + 300);
    const imported = events.slice(before);
    expect(new Set(imported.map((event) => event.transactionId)).size).toBe(1);
    expect(imported.map((event) => event.payload.description)).toEqual(rows.map((_, i) => `IMPORT EV ${i}`));
    for (const event of imported.slice(0, 7)) {
      const read = await api.http
        .get(`${base(rossi)}/transactions/${event.payload.id}?expand=reconciliations`)
        .set(rossi.auth)
        .expect(200);
      expect(event.payload).toEqual(read.body);
      expect(event.createdAt.toISOString()).toBe(read.body.created_at);
    }

    await expect(importTransactions(api.db, { companyId: rossi.companyId, accountId: account.id, csv: `${csv}\nnot-a-date,1,EUR,x,,,,` })).rejects.toThrow(
      'Nothing was imported',
    );
    expect((await recorded(rossi.companyId, 'transaction.created')).length).toBe(before + 300);
  });

  it('pages through every event once, in commit order, each page resumable from its cursor', async () => {
    const all = await api.db.getRepository(DomainEvent).find({ where: { companyId: rossi.companyId } });
    const listed = await listedEventually(
      rossi,
      all.map((event) => event.id),
    );
    expect(listed.map((event) => event.id).sort()).toEqual(all.map((event) => event.id).sort());
    const order = new Map(all.map((event) => [event.id, [BigInt(event.transactionId), BigInt(event.position)] as const]));
    const keys = listed.map((event) => order.get(event.id)!);
    for (let i = 1; i < keys.length; i++) {
      expect(keys[i][0] > keys[i - 1][0] || (keys[i][0] === keys[i - 1][0] && keys[i][1] > keys[i - 1][1])).toBe(true);
    }
    // The last page's cursor resumes after it: nothing new, an empty page without cursor.
    const { cursor } = await listAll(rossi);
    const after = await api.http
      .get(`${base(rossi)}/events?cursor=${cursor}`)
      .set(rossi.auth)
      .expect(200);
    expect(after.body).toEqual({ data: [], page: { cursor: null, size: 25 } });
  });

  it('never skips an event whose transaction started earlier and commits after a page was read', async () => {
    const { cursor } = await listAll(rossi);
    expect(cursor).not.toBeNull();
    const url = api.config.databaseUrl;
    const [earlier, later] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([earlier.connect(), later.connect()]);
    const record = (client: pg.Client, id: string) =>
      client.query(`INSERT INTO events (company_id, type, payload, created_at, api_version) VALUES ($1, 'document.updated', $2, now(), '1.2.0') RETURNING id`, [
        rossi.companyId,
        { id, version: 2 },
      ]);
    try {
      await earlier.query('BEGIN');
      const first = (await record(earlier, randomUUID())).rows[0].id as string;
      await later.query('BEGIN');
      const second = (await record(later, randomUUID())).rows[0].id as string;
      await later.query('COMMIT');

      // The later transaction committed, the earlier not yet: a page read now must not hand out a cursor past either.
      const meanwhile = await listAll(rossi, '', cursor);
      expect(meanwhile.events.map((event) => event.id)).toEqual([]);

      await earlier.query('COMMIT');
      const events = await listedEventually(rossi, [first, second]);
      const resumed = await listAll(rossi, '', meanwhile.cursor ?? cursor);
      expect(resumed.events.map((event) => event.id)).toEqual([first, second]);
      expect(events.slice(-2).map((event) => event.id)).toEqual([first, second]);
    } finally {
      await Promise.all([earlier.end(), later.end()]);
    }
  });

  it('filters by type (comma-separated), document and time', async () => {
    const document = await createInvoice('EV-3');
    const [created] = await recorded(rossi.companyId, 'document.created', document.id);
    const all = await listedEventually(rossi, [created.id]);

    const types = await listAll(rossi, '&filter[type__in]=transaction.created,reconciliation.deleted');
    expect(types.events.map((event) => event.id)).toEqual(
      all.filter((e) => ['transaction.created', 'reconciliation.deleted'].includes(e.type)).map((e) => e.id),
    );
    expect(types.events.length).toBeGreaterThan(300);

    const ofDocument = await listAll(rossi, `&filter[document_id]=${document.id}`);
    expect(ofDocument.events.map((event) => event.id)).toEqual([created.id]);

    const since = created.createdAt.toISOString();
    const recent = await listAll(rossi, `&filter[created_at__gte]=${since}`);
    expect(recent.events.map((event) => event.id)).toEqual(all.filter((e) => e.created_at >= since).map((e) => e.id));
    expect(recent.events.map((event) => event.id)).toContain(created.id);
    const older = await listAll(rossi, `&filter[created_at__lt]=${since}`);
    expect(older.events.length + recent.events.length).toBe(all.length);
  });

  it('lists only the events whose objects the key may read, and answers 403 for the others', async () => {
    const all = await listAll(rossi);
    const documentsOnly = await api.integrators.createKey(rossi.integratorId, 'development', 'documents only', 'documents:read');
    const auth = { Authorization: `Bearer ${documentsOnly.key}` };
    const seen = await listAll(rossi, '', null, auth);
    expect(seen.events.map((event) => event.id)).toEqual(all.events.filter((event) => event.type.startsWith('document.')).map((event) => event.id));

    const transaction = all.events.find((event) => event.type === 'transaction.created')!;
    const refused = await api.http
      .get(`${base(rossi)}/events/${transaction.id}`)
      .set(auth)
      .expect(403);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'insufficient_permission', required_permission: 'transactions:read' })]);

    const transactionsOnly = await api.integrators.createKey(rossi.integratorId, 'development', 'transactions only', 'transactions:write');
    const theirs = await listAll(rossi, '&filter[type__in]=document.created,transaction.created', null, { Authorization: `Bearer ${transactionsOnly.key}` });
    expect(new Set(theirs.events.map((event) => event.type))).toEqual(new Set(['transaction.created']));

    const nothing = await api.integrators.createKey(rossi.integratorId, 'development', 'accounts only', 'accounts:read');
    const none = await api.http
      .get(`${base(rossi)}/events`)
      .set({ Authorization: `Bearer ${nothing.key}` })
      .expect(200);
    expect(none.body).toEqual({ data: [], page: { cursor: null, size: 25 } });
  });

  it("keeps companies apart: another company's events are never listed, and its event ids are 403 as every resource's", async () => {
    const verdiDocument = (
      await api.http
        .post(`${base(verdi)}/documents/invoice`)
        .set(verdi.auth)
        .send(exampleInvoice({ sellerVat: verdi.vatNumber.slice(2), number: 'V-1' }) as object)
        .expect(201)
    ).body.data[0];
    const [theirs] = await recorded(verdi.companyId, 'document.created', verdiDocument.id);
    const listed = await listedEventually(verdi, [theirs.id]);
    expect(listed.map((event) => event.company_id)).toEqual(listed.map(() => verdi.companyId));
    expect((await listAll(rossi)).events.some((event) => event.company_id !== rossi.companyId)).toBe(false);

    expectError(await api.http.get(`${base(rossi)}/events/${theirs.id}`).set(rossi.auth), 403, 'forbidden');
    expectError(await api.http.get(`${base(rossi)}/events/${randomUUID()}`).set(rossi.auth), 404, 'not_found');
    expectError(await api.http.get(`${base(rossi)}/events/not-a-uuid`).set(rossi.auth), 404, 'not_found');
    expectError(await api.http.get(`${base(verdi)}/events`).set(rossi.auth), 403, 'forbidden');
  });

  it('answers 400 to bad cursors, filters and parameters, never 500', async () => {
    const { cursor } = await listAll(rossi);
    const forged = (keys: unknown[], fingerprint: string) => Buffer.from(JSON.stringify({ k: keys, f: fingerprint })).toString('base64url');
    const fingerprint = (JSON.parse(Buffer.from(cursor!, 'base64url').toString('utf8')) as { f: string }).f;
    const bad: Array<[string, string]> = [
      ['cursor=nonsense!', 'invalid_cursor'],
      [`cursor=${forged(['1.5', '2', randomUUID()], fingerprint)}`, 'invalid_cursor'],
      [`cursor=${forged(['99999999999999999999', '2', randomUUID()], fingerprint)}`, 'invalid_cursor'],
      [`cursor=${forged(['1', '2'], fingerprint)}`, 'invalid_cursor'],
      [`filter[type]=document.created&cursor=${cursor}`, 'invalid_cursor'],
      ['filter[type]=invoice.paid', 'invalid_query_parameter'],
      ['filter[type__in]=document.created,', 'invalid_query_parameter'],
      ['filter[document_id]=42', 'invalid_query_parameter'],
      ['filter[created_at__gte]=yesterday', 'invalid_query_parameter'],
      ['filter[payload]=x', 'invalid_query_parameter'],
      ['sort=-created_at', 'invalid_query_parameter'],
      ['page_size=0', 'invalid_query_parameter'],
    ];
    for (const [query, code] of bad) {
      const response = await api.http.get(`${base(rossi)}/events?${query}`).set(rossi.auth);
      expect([query, response.status, response.body.errors?.[0]?.code]).toEqual([query, 400, code]);
    }
  });
});
