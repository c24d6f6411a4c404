import { afterEach, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { createTenant, startApi, type TestApi, type Tenant } from '../../../test/api.js';
import { expectError } from '../../../test/expect.js';
import { Fixtures } from '../../../test/fixtures.js';
import { CompanyShares } from './company-shares.js';
import type { Flow } from '../../flows/flow.entity.js';

/** A connection of the test's own, outside the API's pool, holding a row lock on a document until `release`. */
async function lockDocument(databaseUrl: string, documentId: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM documents WHERE id = $1 FOR UPDATE', [documentId]);
  return {
    release: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** Polls `condition` until it holds (the test's own time-out fails it otherwise). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * What a request holds (its place in its company's share, then a pooled connection) is given back on every path:
 * answered, its client gone before, during or after the wait, its handler failed. Requests here go over real sockets,
 * so that a client can go away.
 */
describe('what a request holds', () => {
  let api: TestApi;
  let verdi: Tenant;
  let verdiFlow: Flow;
  let base: string;
  let held: { release: () => Promise<void> } | undefined;

  async function setUp(env: Record<string, string>): Promise<void> {
    api = await startApi({ RATE_LIMIT_POINTS: '100000', DB_LOCK_TIMEOUT_MS: '60000', DB_POOL_WAIT_MS: '60000', DB_COMPANY_WAIT_MS: '60000', ...env });
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const fixtures = new Fixtures(api.db, verdi.companyId);
    verdiFlow = await fixtures.flow(await fixtures.document({ grossAmount: '2000.00' }), { amount: '1000.00' });
    const server = api.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/companies`;
  }

  afterEach(async () => {
    await held?.release();
    held = undefined;
    await api?.close();
  });

  const usage = (tenant: Tenant) => api.app.get(CompanyShares).usage().get(tenant.companyId) ?? { held: 0, waiting: 0 };
  const pool = () => (api.db.driver as PostgresDriver).master as { totalCount: number; idleCount: number; waitingCount: number };
  const connections = () => new Promise<number>((resolve) => api.app.getHttpServer().getConnections((_error, count) => resolve(count)));

  /** Sends a request over its own socket; resolves with its status, or 0 when `signal` aborted it. */
  const send = (tenant: Tenant, path: string, init: { method?: string; body?: object; signal?: AbortSignal } = {}) =>
    fetch(`${base}/${tenant.companyId}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...tenant.auth, 'content-type': 'application/json', connection: 'close' },
      body: init.body && JSON.stringify(init.body),
      signal: init.signal,
    }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      (error: Error) => {
        if (error.name !== 'AbortError') throw error;
        return 0;
      },
    );
  const patchFlow = (amount: string, signal?: AbortSignal) =>
    send(verdi, `/documents/${verdiFlow.documentId}/flows/${verdiFlow.id}`, { method: 'PATCH', body: { amount: { amount, currency: 'EUR' } }, signal });

  /** Verdi's two places (DB_COMPANY_CONNECTIONS) taken by PATCHes waiting on a locked document. */
  async function fillVerdiShare(signal?: AbortSignal): Promise<Promise<number>[]> {
    held = await lockDocument(api.config.databaseUrl, verdiFlow.documentId);
    const patches = [patchFlow('1001.00', signal), patchFlow('1002.00', signal)];
    await until(() => usage(verdi).held === 2);
    return patches;
  }

  it('gives a place in line up at once when its client goes away, and runs nothing for it', async () => {
    await setUp({ DB_POOL_SIZE: '4', DB_COMPANY_CONNECTIONS: '2' });
    const patches = await fillVerdiShare();
    const gone = new AbortController();
    const queued = Array.from({ length: 300 }, (_, i) => send(verdi, '/categories', { method: 'POST', body: { name: `Coda ${i}` }, signal: gone.signal }));
    await until(() => usage(verdi).waiting === 300);

    gone.abort();
    expect(await Promise.all(queued)).toEqual(Array(300).fill(0));
    // Each left the line as its socket closed, not when its turn would have come.
    await until(() => usage(verdi).waiting === 0);
    expect(usage(verdi)).toEqual({ held: 2, waiting: 0 });

    await held!.release();
    held = undefined;
    expect(await Promise.all(patches)).toEqual([200, 200]);
    await until(() => usage(verdi).held === 0);
    // The company is served at once, and none of the abandoned POSTs ran.
    expect(await send(verdi, '/categories')).toBe(200);
    const [{ n }] = await api.db.query(`SELECT count(*)::int AS n FROM categories WHERE company_id = $1 AND name LIKE 'Coda %'`, [verdi.companyId]);
    expect(n).toBe(0);
  });

  it('holds the place of a request whose client left after its turn came until its handler has answered', async () => {
    await setUp({ DB_POOL_SIZE: '4', DB_COMPANY_CONNECTIONS: '2' });
    const gone = new AbortController();
    const patches = await fillVerdiShare(gone.signal);
    gone.abort();
    expect(await Promise.all(patches)).toEqual([0, 0]);
    await until(async () => (await connections()) === 0);
    // Both handlers still wait on the lock, each on a pooled connection: their places are not free for others yet.
    expect(usage(verdi)).toEqual({ held: 2, waiting: 0 });

    await held!.release();
    held = undefined;
    await until(() => usage(verdi).held === 0);
    const [flow] = await api.db.query('SELECT amount FROM flows WHERE id = $1', [verdiFlow.id]);
    expect(['1001.00', '1002.00']).toContain(flow.amount);
    expect(await send(verdi, '/categories')).toBe(200);
  });

  it('answers 429 too_many_requests with Retry-After to a company over its share, and gives the places back after', async () => {
    await setUp({ DB_POOL_SIZE: '4', DB_COMPANY_CONNECTIONS: '2', DB_COMPANY_WAIT_MS: '200' });
    const patches = await fillVerdiShare();
    const refused = await api.http.get(`/api/v1/companies/${verdi.companyId}/categories`).set(verdi.auth);
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBe('1');
    expect(usage(verdi)).toEqual({ held: 2, waiting: 0 });

    await held!.release();
    held = undefined;
    expect(await Promise.all(patches)).toEqual([200, 200]);
    await until(() => usage(verdi).held === 0);
    // A handler that fails gives its place back too (the PATCH of a flow that does not exist is a 404).
    const missing = await send(verdi, `/documents/${verdiFlow.documentId}/flows/00000000-0000-4000-8000-000000000000`, {
      method: 'PATCH',
      body: { amount: { amount: '1.00', currency: 'EUR' } },
    });
    expect(missing).toBe(404);
    expect(usage(verdi)).toEqual({ held: 0, waiting: 0 });
  });

  it('leaves the pool whole after hundreds of requests queued behind it are abandoned', async () => {
    // Verdi's two PATCHes take the whole pool; five more companies' requests queue for it and for their shares.
    await setUp({ DB_POOL_SIZE: '2', DB_COMPANY_CONNECTIONS: '2' });
    const others: Tenant[] = [];
    for (let i = 0; i < 5; i++) others.push(await createTenant(api, `Altra ${i} S.r.l.`));
    // Their keys are then known to the process: authenticating them again needs no connection.
    for (const tenant of others) expect(await send(tenant, '/categories')).toBe(200);
    const patches = await fillVerdiShare();
    const gone = new AbortController();
    const queued = others.flatMap((tenant) => Array.from({ length: 60 }, () => send(tenant, '/categories', { signal: gone.signal })));
    await until(() => others.every((tenant) => usage(tenant).held === 2 && usage(tenant).waiting === 58) && pool().waitingCount > 0);

    gone.abort();
    expect(await Promise.all(queued)).toEqual(Array(300).fill(0));
    await until(() => others.every((tenant) => usage(tenant).waiting === 0));

    await held!.release();
    held = undefined;
    expect(await Promise.all(patches)).toEqual([200, 200]);
    // The ten requests already past their share ran their one query each and gave everything back.
    await until(() => others.every((tenant) => usage(tenant).held === 0) && pool().waitingCount === 0);
    expect(pool().idleCount).toBe(pool().totalCount);
    expect(await send(others[0], '/categories')).toBe(200);
    expect(await send(verdi, '/categories')).toBe(200);
  });
});
