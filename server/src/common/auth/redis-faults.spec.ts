import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../../test/api.js';
import { expectError } from '../../../test/expect.js';
import { Fixtures } from '../../../test/fixtures.js';
import { PrivateRedis } from '../../../test/redis-server.js';
import type { Flow } from '../../flows/flow.entity.js';
import { authGenerationKey } from './auth-invalidation.js';

async function timed(send: () => PromiseLike<Response>): Promise<{ response: Response; ms: number }> {
  const started = performance.now();
  const response = await send();
  return { response, ms: performance.now() - started };
}

async function until(condition: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the API while its Redis is down', () => {
  let redis: PrivateRedis;
  let api: TestApi;
  let rossi: Tenant;
  let flow: Flow;

  const listDocuments = (tenant: Tenant) => api.http.get(`/api/v1/companies/${tenant.companyId}/documents`).set(tenant.auth);
  const patchFlow = (amount: string) =>
    api.http
      .patch(`/api/v1/companies/${rossi.companyId}/documents/${flow.documentId}/flows/${flow.id}`)
      .set(rossi.auth)
      .send({ amount: { amount, currency: 'EUR' } });

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    api = await startApi({ REDIS_URL: redis.url, RATE_LIMIT_POINTS: '40', AUTH_CACHE_SECONDS: '60' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    const fixtures = new Fixtures(api.db, rossi.companyId);
    flow = await fixtures.flow(await fixtures.document({ grossAmount: '2000.00' }), { amount: '1000.00' });
  });

  afterAll(async () => {
    await api.close();
    await redis.close();
  });

  it('serves reads and writes at once, rate limited in each process, and counts in Redis again once it is back', async () => {
    await listDocuments(rossi).expect(200);
    await redis.stop();

    const read = await timed(() => listDocuments(rossi));
    expect(read.response.status).toBe(200);
    expect(read.response.headers['x-ratelimit-limit']).toBe('40');
    // Before: 500 after 2.8 s of retries. The bound leaves room for a busy test machine.
    expect(read.ms).toBeLessThan(1500);
    const write = await timed(() => patchFlow('900.00'));
    expect(write.response.status).toBe(200);
    expect(write.response.body.amount).toEqual({ amount: '900.00', currency: 'EUR' });
    expect(write.ms).toBeLessThan(1500);

    // The process counts the key against the same limit in its own window.
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const response = await listDocuments(rossi);
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(40);
    expect(statuses.at(-1)).toBe(429);

    await redis.restart();
    const other = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const counted = new Redis(redis.url);
    try {
      await until(async () => {
        await listDocuments(other);
        return (await counted.keys(`${api.config.redisPrefix}:ratelimit:*`)).length > 0;
      }, 'the rate limit to be counted in Redis again');
    } finally {
      counted.disconnect();
    }
  });

  it('forgets cached keys when it loses the invalidation channel, so a revocation made meanwhile is not missed', async () => {
    const tenant = await createTenant(api, 'Gialli Arredamenti S.r.l.');
    const [key] = await api.integrators.listKeys(tenant.integratorId);
    await listDocuments(tenant).expect(200);
    await redis.stop();
    // Revoked while no announcement can reach the API (as when PUBLISH finds no subscriber).
    await api.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
    expectError(await listDocuments(tenant), 401, 'unauthorized');
    await redis.restart();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expectError(await listDocuments(tenant), 401, 'unauthorized');
  });

  it('drops cached keys when the auth generation moved, even if the announcement never arrived', async () => {
    const tenant = await createTenant(api, 'Blu Servizi S.r.l.');
    const [key] = await api.integrators.listKeys(tenant.integratorId);
    await listDocuments(tenant).expect(200);
    // A revocation whose announcement was lost: the generation moved, nobody was told.
    await api.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
    const direct = new Redis(redis.url);
    try {
      await direct.incr(authGenerationKey(api.config.redisPrefix));
    } finally {
      direct.disconnect();
    }
    // At most the rest of the process's lease (40 points: 1 request at a time) is served from the cache.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await listDocuments(tenant)).status);
    expect(statuses.slice(-2)).toEqual([401, 401]);
  });
});
