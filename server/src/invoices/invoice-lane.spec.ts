import { afterEach, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createTenant, startApi, type Tenant, type TestApi } from '../../test/api.js';
import { exampleInvoice } from './invoice-example.js';
import { InvoiceLane } from './invoice-lane.js';

/** Polls `condition` until it holds (the test's own time-out fails it otherwise). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * The invoice lane (invoice-lane.ts): INVOICE_CONCURRENCY invoices in progress per API process, the others in a line of
 * XML_QUEUE_LIMIT, one more refused at once; a client gone while waiting leaves the line; reads never wait in it. An
 * invoice is held in progress by a lock the test takes on its company's ProgressivoInvio counter (the create's first
 * statement waits there), so nothing here depends on how fast the machine reads a file. Requests go over real sockets,
 * so that a client can go away.
 */
describe('the invoice lane', () => {
  let api: TestApi;
  let base: string;
  let counterLock: pg.Client | undefined;

  async function setUp(): Promise<Tenant[]> {
    api = await startApi({
      INVOICE_CONCURRENCY: '1',
      XML_QUEUE_LIMIT: '2',
      DB_LOCK_TIMEOUT_MS: '60000',
      DB_STATEMENT_TIMEOUT_MS: '60000',
      DB_COMPANY_WAIT_MS: '60000',
      RATE_LIMIT_POINTS: '100000',
    });
    const server = api.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/companies`;
    const tenants: Tenant[] = [];
    for (const name of ['Rossi Forniture S.r.l.', 'Verdi Costruzioni S.p.A.', 'Bianchi Trasporti S.n.c.', 'Neri Impianti S.r.l.']) {
      tenants.push(await createTenant(api, name));
    }
    return tenants;
  }

  afterEach(async () => {
    await counterLock?.query('ROLLBACK');
    await counterLock?.end();
    counterLock = undefined;
    await api?.close();
  });

  const lane = () => api.app.get(InvoiceLane).usage();

  /** Sends a request over its own socket; resolves with its status and body, or status 0 when `signal` aborted it. */
  /** An answer as read here: an error's first item, a create's first document. */
  type Answer = { status: number; retryAfter: string | null; body: { errors?: Array<{ code: string }>; data?: Array<{ created_at: string }> } };
  const send = (tenant: Tenant, path: string, init: { body?: object; signal?: AbortSignal } = {}): Promise<Answer> =>
    fetch(`${base}/${tenant.companyId}${path}`, {
      method: init.body ? 'POST' : 'GET',
      headers: { ...tenant.auth, 'content-type': 'application/json', connection: 'close' },
      body: init.body && JSON.stringify(init.body),
      signal: init.signal,
    }).then(
      async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Answer['body'] }),
      (error: Error) => {
        if (error.name !== 'AbortError') throw error;
        return { status: 0, retryAfter: null, body: {} };
      },
    );
  const create = (tenant: Tenant, number: string, signal?: AbortSignal) =>
    send(tenant, '/documents/invoice', { body: exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number }), signal });
  const documents = async (tenant: Tenant) =>
    (await api.db.query(`SELECT count(*)::int AS n FROM documents WHERE company_id = $1`, [tenant.companyId]))[0].n as number;

  /** Creates one invoice for `tenant` (so its counter row exists), then locks that row until afterEach. */
  async function lockCounter(tenant: Tenant): Promise<void> {
    expect((await create(tenant, 'FIRST-1')).status).toBe(201);
    counterLock = new pg.Client({ connectionString: api.config.databaseUrl });
    await counterLock.connect();
    await counterLock.query('BEGIN');
    await counterLock.query('SELECT 1 FROM sdi_progressivi WHERE company_id = $1 FOR UPDATE', [tenant.companyId]);
  }

  const releaseCounter = async () => {
    await counterLock!.query('ROLLBACK');
    await counterLock!.end();
    counterLock = undefined;
  };

  it('lets one invoice in progress at a time, lines up the next in order, refuses one more at once, and never holds up a read', async () => {
    const [rossi, verdi, bianchi, neri] = await setUp();
    await lockCounter(rossi);
    const first = create(rossi, 'HELD-1');
    await until(() => lane().held === 1);
    const second = create(verdi, 'LINE-1');
    await until(() => lane().waiting === 1);
    const third = create(bianchi, 'LINE-2');
    await until(() => lane().waiting === 2);

    // The line is full: one more is answered at once, and nothing of it is written.
    const refused = await create(neri, 'OVER-1');
    expect(refused.status).toBe(503);
    expect(refused.body.errors?.[0]).toMatchObject({ code: 'service_unavailable' });
    expect(refused.retryAfter).toBe('1');
    expect(await documents(neri)).toBe(0);
    // Reads go past the line.
    expect((await send(neri, '/documents')).status).toBe(200);
    expect(lane()).toEqual({ held: 1, waiting: 2 });

    await releaseCounter();
    const answers = await Promise.all([first, second, third]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    // First come, first served: created in the order they joined the line.
    const created = answers.map((a) => Date.parse(a.body.data![0].created_at));
    expect(created[0]).toBeLessThanOrEqual(created[1]);
    expect(created[1]).toBeLessThanOrEqual(created[2]);
    expect(lane()).toEqual({ held: 0, waiting: 0 });
    expect((await create(neri, 'OVER-1')).status).toBe(201);
  });

  it('gives a place in line up at once when its client goes away, and creates nothing for it', async () => {
    const [rossi, verdi] = await setUp();
    await lockCounter(rossi);
    const first = create(rossi, 'HELD-1');
    await until(() => lane().held === 1);
    const gone = new AbortController();
    const waiting = create(verdi, 'GONE-1', gone.signal);
    await until(() => lane().waiting === 1);

    gone.abort();
    expect((await waiting).status).toBe(0);
    // It left as its socket closed, while the invoice ahead is still in progress.
    await until(() => lane().waiting === 0);
    expect(lane()).toEqual({ held: 1, waiting: 0 });

    await releaseCounter();
    expect((await first).status).toBe(201);
    expect(lane()).toEqual({ held: 0, waiting: 0 });
    expect(await documents(verdi)).toBe(0);
    // The same invoice, sent again, is created at once.
    expect((await create(verdi, 'GONE-1')).status).toBe(201);
  });
});
