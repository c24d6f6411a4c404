import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../../test/api.js';
import { expectError } from '../../../test/expect.js';
import { Fixtures } from '../../../test/fixtures.js';
import type { Flow } from '../../flows/flow.entity.js';
import { toErrorResponse } from '../errors/error-response.js';

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

async function timed(send: () => PromiseLike<Response>): Promise<{ response: Response; ms: number }> {
  const started = performance.now();
  const response = await send();
  return { response, ms: performance.now() - started };
}

function expectUnavailable(response: Response): void {
  expectError(response, 503, 'service_unavailable');
  expect(response.headers['retry-after']).toBe('1');
}

describe('the database under contention', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let verdiFlow: Flow;
  let held: { release: () => Promise<void> } | undefined;

  const patchFlow = (tenant: Tenant, flow: Flow, amount: string) =>
    api.http
      .patch(`/api/v1/companies/${tenant.companyId}/documents/${flow.documentId}/flows/${flow.id}`)
      .set(tenant.auth)
      .send({ amount: { amount, currency: 'EUR' } });
  const listDocuments = (tenant: Tenant) => api.http.get(`/api/v1/companies/${tenant.companyId}/documents`).set(tenant.auth);

  async function setUp(env: Record<string, string>): Promise<void> {
    api = await startApi(env);
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    await new Fixtures(api.db, rossi.companyId).document();
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    verdiFlow = await verdiFixtures.flow(await verdiFixtures.document({ grossAmount: '2000.00' }), { amount: '1000.00' });
  }

  afterEach(async () => {
    await held?.release();
    held = undefined;
    await api?.close();
  });

  it('keeps answering one company while another’s requests queue on a locked row', async () => {
    // Long waits, so Verdi's requests stay queued for the whole test instead of giving up.
    await setUp({ DB_LOCK_TIMEOUT_MS: '20000', DB_POOL_WAIT_MS: '20000', DB_COMPANY_WAIT_MS: '20000' });
    await listDocuments(rossi).expect(200);
    held = await lockDocument(api.config.databaseUrl, verdiFlow.documentId);
    const queued = Array.from({ length: 12 }, (_, i) => patchFlow(verdi, verdiFlow, `${1000 + i}.00`).then((response) => response));
    await new Promise((resolve) => setTimeout(resolve, 300));

    // The pool has 10 connections; Verdi's twelve PATCHes may hold 5 of them (DB_COMPANY_CONNECTIONS).
    for (let i = 0; i < 10; i++) {
      const { response, ms } = await timed(() => listDocuments(rossi));
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(1);
      // Without the company's share they waited for a pooled connection (here up to 20 s).
      expect(ms).toBeLessThan(2000);
    }

    await held.release();
    held = undefined;
    const answers = await Promise.all(queued);
    expect(answers.map((response) => response.status)).toEqual(Array(12).fill(200));
  });

  it('answers 503 with Retry-After, and changes nothing, when a row lock is not granted within DB_LOCK_TIMEOUT_MS', async () => {
    await setUp({ DB_LOCK_TIMEOUT_MS: '300', DB_STATEMENT_TIMEOUT_MS: '500' });
    held = await lockDocument(api.config.databaseUrl, verdiFlow.documentId);
    const { response, ms } = await timed(() => patchFlow(verdi, verdiFlow, '900.00'));
    expectUnavailable(response);
    expect(ms).toBeLessThan(2000);
    await held.release();
    held = undefined;

    const [flow] = await api.db.query('SELECT amount FROM flows WHERE id = $1', [verdiFlow.id]);
    expect(flow.amount).toBe('1000.00');
    const [events] = await api.db.query('SELECT count(*)::int AS n FROM events WHERE company_id = $1', [verdi.companyId]);
    expect(events.n).toBe(0);

    // A statement running past DB_STATEMENT_TIMEOUT_MS is cancelled, and answered the same way.
    const slow = await api.db.query('SELECT pg_sleep(2)').catch((error: unknown) => error);
    const answer = toErrorResponse(slow);
    expect({ status: answer.status, code: answer.body.errors[0].code, retryAfter: answer.headers['retry-after'] }).toEqual({
      status: 503,
      code: 'service_unavailable',
      retryAfter: '1',
    });
  });

  it('answers a list with 503, not 500, when its statement waits past DB_LOCK_TIMEOUT_MS', async () => {
    // List pages run as prepared statements straight on the pool, not through TypeORM: their failures are mapped too.
    await setUp({ DB_LOCK_TIMEOUT_MS: '300', DB_STATEMENT_TIMEOUT_MS: '2000' });
    await listDocuments(rossi).expect(200);
    const client = new pg.Client({ connectionString: api.config.databaseUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE documents IN ACCESS EXCLUSIVE MODE');
    held = {
      release: async () => {
        await client.query('ROLLBACK');
        await client.end();
      },
    };
    const { response, ms } = await timed(() => listDocuments(rossi));
    expectUnavailable(response);
    expect(ms).toBeLessThan(2000);
    await held.release();
    held = undefined;
    await listDocuments(rossi).expect(200);
  });

  it('answers 503 with Retry-After within DB_POOL_WAIT_MS when every pooled connection is busy, 429 within DB_COMPANY_WAIT_MS for the share', async () => {
    await setUp({ DB_POOL_SIZE: '2', DB_COMPANY_CONNECTIONS: '2', DB_POOL_WAIT_MS: '300', DB_COMPANY_WAIT_MS: '300', DB_LOCK_TIMEOUT_MS: '20000' });
    await listDocuments(rossi).expect(200);
    held = await lockDocument(api.config.databaseUrl, verdiFlow.documentId);
    const queued = [patchFlow(verdi, verdiFlow, '1001.00').then((r) => r), patchFlow(verdi, verdiFlow, '1002.00').then((r) => r)];
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Rossi finds the pool taken: a fault of the service, 503. Verdi's third request finds its company's share taken:
    // the caller sends more at once than its share, 429.
    const { response: pooled, ms } = await timed(() => listDocuments(rossi));
    expectUnavailable(pooled);
    expect(ms).toBeLessThan(1500);
    const { response: shared, ms: sharedMs } = await timed(() => patchFlow(verdi, verdiFlow, '1003.00'));
    expectError(shared, 429, 'too_many_requests');
    expect(shared.headers['retry-after']).toBe('1');
    expect(sharedMs).toBeLessThan(1500);

    await held.release();
    held = undefined;
    expect((await Promise.all(queued)).map((response) => response.status)).toEqual([200, 200]);
    await listDocuments(rossi).expect(200);
  });
});
