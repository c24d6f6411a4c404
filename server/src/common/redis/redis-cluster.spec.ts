import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createTenant, startApi, type TestApi, type Tenant } from '../../../test/api.js';
import { Fixtures } from '../../../test/fixtures.js';
import { RedisCluster } from '../../../test/redis-cluster.js';
import { Receiver, waitFor } from '../../../test/webhook-receiver.js';
import { startWorker } from '../../../test/worker.js';
import { ConfigError, loadConfig } from '../../config/config.js';
import { checkRedis } from '../../processes/preflight.js';
import { generateKey } from '../auth/api-key.js';
import { authInvalidationChannel } from '../auth/auth-invalidation.js';
import { createRedis } from './redis-client.js';

describe('REDIS_CLUSTER_NODES', () => {
  it('takes host:port seeds, or URLs whose credentials and TLS apply to every node, and refuses anything else', () => {
    expect(loadConfig({}).redisCluster).toBeNull();
    expect(loadConfig({ REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis-b:7001 ,[::1]:7002' }).redisCluster).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'rediss://flusso:s%40cret@a:6380,rediss://b:6380' }).redisCluster).toEqual({
      nodes: [
        { host: 'a', port: 6380 },
        { host: 'b', port: 6380 },
      ],
      username: 'flusso',
      password: 's@cret',
      tls: true,
    });
    for (const bad of ['a', 'a:6379,', 'http://a:1', 'redis://a:1/2', 'redis://a:1,rediss://b:1']) {
      expect(() => loadConfig({ REDIS_CLUSTER_NODES: bad })).toThrow(ConfigError);
    }
    // The value may hold a password: it is never echoed back.
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'rediss://u:hunter2@a' })).toThrow(/^(?!.*hunter2)/s);
  });
});

/**
 * The API and the worker on a real Redis Cluster of three masters (REDIS_CLUSTER_NODES): rate limits, failed-auth
 * counts and the auth cache's invalidation, idempotent POSTs and webhook delivery work as on one Redis server, their keys
 * spread over the masters, and a lost master costs neither an answer nor a hang.
 */
describe('on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let api: TestApi;
  let worker: INestApplicationContext | undefined;
  let rossi: Tenant;
  let receiver: Receiver & { url: string };
  /** The document whose changes the webhook test sends, and the category it was last given. */
  let watched: { documentId: string; categoryIds: string[] };

  const listDocuments = (tenant: Tenant) => api.http.get(`/api/v1/companies/${tenant.companyId}/documents`).set(tenant.auth);

  beforeAll(async () => {
    cluster = await RedisCluster.start(3);
    const env = {
      REDIS_CLUSTER_NODES: cluster.nodes,
      // Pointing nowhere: nothing may still use it.
      REDIS_URL: 'redis://127.0.0.1:1',
      RATE_LIMIT_POINTS: '30',
      AUTH_FAILURE_LIMIT: '1000',
      AUTH_CACHE_SECONDS: '60',
      WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s',
      WEBHOOK_TIMEOUT_MS: '1000',
    };
    api = await startApi(env);
    worker = await startWorker(api.config.databaseUrl, env);
    rossi = await createTenant(api);
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    // The nodes are stopped whatever happens before: a worker whose close hangs (a test failed mid-outage) is left.
    const bounded = (closing: Promise<unknown> | undefined) =>
      Promise.race([closing?.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    try {
      await bounded(worker?.close());
      await bounded(receiver?.close());
      await bounded(api?.close());
    } finally {
      await cluster?.close();
    }
  }, 60_000);

  it('passes the preflight check, and names the nodes when the cluster cannot be reached', async () => {
    await expect(checkRedis(api.config)).resolves.toBeUndefined();
    const nowhere = loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:1,127.0.0.1:2' });
    await expect(checkRedis(nowhere)).rejects.toThrow(
      /^The Redis Cluster is not usable \(REDIS_CLUSTER_NODES=127\.0\.0\.1:1,127\.0\.0\.1:2: .*\); start its nodes/,
    );
  });

  it('limits a key across the cluster and answers 429 past the limit', async () => {
    const tenant = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const statuses: number[] = [];
    for (let i = 0; i < 34; i++) statuses.push((await listDocuments(tenant)).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429]);
    // Counted in the cluster, not in the process's own fallback window.
    const [key] = await api.integrators.listKeys(tenant.integratorId);
    const windows = (await cluster.keys(`${api.config.redisPrefix}:ratelimit:${key.id}`)).flat();
    expect(windows).toHaveLength(1);
  });

  it('replays an idempotent POST and creates nothing twice', async () => {
    const path = `/api/v1/companies/${rossi.companyId}/categories`;
    const first = await api.http.post(path).set(rossi.auth).set('Idempotency-Key', 'cluster-1').send({ name: 'Affitti' }).expect(201);
    const retry = await api.http.post(path).set(rossi.auth).set('Idempotency-Key', 'cluster-1').send({ name: 'Affitti' }).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    const [{ count }] = await api.db.query(`SELECT count(*)::int AS count FROM categories WHERE company_id = $1 AND name = 'Affitti'`, [rossi.companyId]);
    expect(count).toBe(1);
  });

  it('delivers webhooks through the queues of the cluster, in order per document', async () => {
    const fixtures = new Fixtures(api.db, rossi.companyId);
    const categories = [await fixtures.category({ name: 'Utenze' }), await fixtures.category({ name: 'Servizi' })];
    const document = await fixtures.document({ number: 'FV-CLUSTER' });
    watched = { documentId: document.id, categoryIds: categories.map((category) => category.id) };
    const endpoint = await api.http.post('/api/v1/webhook-endpoints').set(rossi.auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [endpoint.body.secret];
    for (let round = 0; round < 4; round++) {
      await api.http
        .patch(`/api/v1/companies/${rossi.companyId}/documents/${document.id}`)
        .set(rossi.auth)
        .send({ category_id: categories[round % 2].id })
        .expect(200);
    }
    const events: Array<{ id: string }> = await api.db.query(
      `SELECT id FROM events WHERE company_id = $1 AND type = 'document.updated' ORDER BY created_at, id`,
      [rossi.companyId],
    );
    expect(events).toHaveLength(4);
    await waitFor(() => events.every((event) => receiver.received.some((r) => r.body.id === event.id)), 'the events delivered', 30_000);
    const firstArrivals = [...new Set(receiver.received.map((r) => r.body.id as string))].filter((id) => events.some((event) => event.id === id));
    expect(firstArrivals).toEqual(events.map((event) => event.id));
    expect(receiver.refused).toEqual([]);
  });

  it('spreads its keys over the masters, and keeps each queue in the slot of its braced prefix', async () => {
    // Failed authentications of many key lookups: one counter each, hashed to slots of their own.
    for (let i = 0; i < 30; i++) {
      await api.http
        .get(`/api/v1/companies/${rossi.companyId}/documents`)
        .set('Authorization', `Bearer ${generateKey('development').key}`)
        .expect(401);
    }
    const counters = await cluster.keys(`${api.config.redisPrefix}:authfail:key:*`);
    expect(counters.flat()).toHaveLength(30);
    expect(counters.every((keys) => keys.length > 0)).toBe(true);
    const perMaster = await cluster.keysPerMaster();
    const redis = createRedis(api.config);
    try {
      const slots = new Set<number>();
      for (const key of [`{${api.config.redisPrefix}}:sdi:meta`, `{${api.config.redisPrefix}}:sdi:id`, `{${api.config.redisPrefix}}:sdi:wait`]) {
        slots.add(Number(await redis.cluster('KEYSLOT', key)));
      }
      expect(slots.size).toBe(1);
      expect(await redis.exists(`{${api.config.redisPrefix}}:sdi:meta`)).toBe(1);
    } finally {
      redis.disconnect();
    }
    process.stdout.write(`keys per master: ${perMaster.join(', ')}\n`);
  });

  it('announces a revoked key through the cluster, and the API refuses it at once', async () => {
    const tenant = await createTenant(api, 'Gialli Arredamenti S.r.l.');
    await listDocuments(tenant).expect(200);
    const listener = createRedis(api.config);
    const heard: string[] = [];
    try {
      listener.on('message', (_channel: string, message: string) => heard.push(message));
      await listener.subscribe(authInvalidationChannel(api.config.redisPrefix));
      const [key] = await api.integrators.listKeys(tenant.integratorId);
      await api.integrators.revokeKey(key.id);
      await waitFor(() => heard.length > 0, 'the announcement');
      expect((await listDocuments(tenant)).status).toBe(401);
    } finally {
      listener.disconnect();
    }
  });

  it('answers every request when a master is lost, without waiting on it, and counts in the cluster again once it is back', async () => {
    await listDocuments(rossi).expect(200);
    // The queue workers' errors meanwhile are logged as lines of their own, not printed by BullMQ for want of a listener.
    const printed = jest.spyOn(console, 'error');
    await cluster.kill(1);
    // Both moments: before the cluster notices (commands to the lost master time out) and after (CLUSTERDOWN).
    const statuses: number[] = [];
    let slowestMs = 0;
    const sendSome = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        const response = await listDocuments(rossi);
        slowestMs = Math.max(slowestMs, performance.now() - started);
        statuses.push(response.status);
      }
    };
    await sendSome(5);
    await cluster.waitFor('fail');
    await sendSome(5);
    // A write while the queues cannot be reached: committed, its event waits in PostgreSQL.
    const write = await api.http
      .patch(`/api/v1/companies/${rossi.companyId}/documents/${watched.documentId}`)
      .set(rossi.auth)
      .send({ category_id: watched.categoryIds[0] });
    statuses.push(write.status);
    expect(statuses).toEqual(Array(11).fill(200));
    // A request waits at most REDIS_COMMAND_TIMEOUT_MS (500 ms) for Redis; the bound leaves room for a busy machine.
    expect(slowestMs).toBeLessThan(3000);
    // Failed authentications are still answered 401, counted in the process.
    await api.http
      .get(`/api/v1/companies/${rossi.companyId}/documents`)
      .set('Authorization', `Bearer ${generateKey('development').key}`)
      .expect(401);

    await cluster.restart(1);
    // A key never counted before: its window can only come from the cluster.
    const neri = await createTenant(api, 'Neri Trasporti S.r.l.');
    const [key] = await api.integrators.listKeys(neri.integratorId);
    const redis = createRedis(api.config);
    try {
      await waitFor(
        async () => {
          await listDocuments(neri);
          return (await redis.exists(`${api.config.redisPrefix}:ratelimit:${key.id}`).catch(() => 0)) === 1;
        },
        'the rate limit to be counted in the cluster again',
        15_000,
      );
    } finally {
      redis.disconnect();
    }
    // The write's event goes out: the fan-out and the delivery engine need PostgreSQL only.
    const [event] = await api.db.query(`SELECT id FROM events WHERE company_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [rossi.companyId]);
    await waitFor(() => receiver.received.some((r) => r.body.id === event.id), 'the event written during the outage to be delivered', 30_000);
    const unheard = printed.mock.calls.filter((args) => String(args[0]).includes('Unhandled error'));
    printed.mockRestore();
    expect(unheard).toEqual([]);
  });
});
