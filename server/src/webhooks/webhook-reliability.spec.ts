import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { type ChildProcess, spawn } from 'node:child_process';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { Fixtures } from '../../test/fixtures.js';
import { PrivateRedis } from '../../test/redis-server.js';
import { Receiver, waitFor } from '../../test/webhook-receiver.js';
import { startWorker } from '../../test/worker.js';
import type { Category } from '../categories/category.entity.js';
import type { Document } from '../documents/document.entity.js';
import { SDI_QUEUE } from '../invoices/sdi/sdi-channel.port.js';

/**
 * The promise: every committed change's event reaches the endpoint at least once, whatever happens to Redis or to a
 * worker meanwhile. Redis is the test's own; the worker runs in the test or as a child process killed with SIGKILL.
 */
describe('webhook delivery survives failures', () => {
  let api: TestApi;
  const receivers: Receiver[] = [];
  const env = { WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s,2s,5s', WEBHOOK_TIMEOUT_MS: '1000' };

  beforeAll(async () => {
    api = await startApi(env);
  });

  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await api.close();
  });

  async function setUp(documents: number) {
    const tenant = await createTenant(api);
    const fixtures = new Fixtures(api.db, tenant.companyId);
    const categories = [await fixtures.category({ name: 'Utenze' }), await fixtures.category({ name: 'Servizi' })];
    const docs: Document[] = [];
    for (let i = 0; i < documents; i++) docs.push(await fixtures.document({ number: `FV-${i}` }));
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const endpoint = await api.http.post('/api/v1/webhook-endpoints').set(tenant.auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [endpoint.body.secret];
    return { tenant, categories, docs, receiver };
  }

  /** Changes each document `rounds` times in a row (documents side by side); every change records one event. */
  async function burst(tenant: Tenant, docs: Document[], categories: Category[], rounds: number, from = 0): Promise<void> {
    await Promise.all(
      docs.map(async (doc) => {
        for (let round = from; round < from + rounds; round++) {
          await api.http
            .patch(`/api/v1/companies/${tenant.companyId}/documents/${doc.id}`)
            .set(tenant.auth)
            .send({ category_id: categories[round % 2].id })
            .expect(200);
        }
      }),
    );
  }

  const eventIds = async (tenant: Tenant): Promise<string[]> =>
    (await api.db.query(`SELECT id FROM events WHERE company_id = $1 ORDER BY id`, [tenant.companyId])).map((row: { id: string }) => row.id);

  /** Every recorded event of the tenant has reached the receiver (at least once). */
  async function everyEventDelivered(tenant: Tenant, receiver: Receiver): Promise<void> {
    const all = await eventIds(tenant);
    await waitFor(() => all.every((id) => receiver.received.some((r) => r.body.id === id)), `${all.length} events delivered`, 90_000);
    expect(new Set(receiver.received.map((r) => r.body.id))).toEqual(new Set(all));
    expect(receiver.refused).toEqual([]);
  }

  describe('Redis stopped while documents change', () => {
    let redis: PrivateRedis;
    let worker: INestApplicationContext;

    afterEach(async () => {
      await worker?.close();
      await redis?.close();
    });

    it('delivers every committed change’s event all the same: the outbound pipeline reads and writes PostgreSQL only', async () => {
      redis = await PrivateRedis.start({ persistent: false });
      worker = await startWorker(api.config.databaseUrl, { ...env, REDIS_URL: redis.url });
      const { tenant, categories, docs, receiver } = await setUp(4);
      await burst(tenant, docs, categories, 1);
      await waitFor(() => receiver.received.length === 4, 'the first deliveries');

      // The queues' connection errors meanwhile are logged as lines of their own, not printed by BullMQ for want of a listener.
      const printed = jest.spyOn(console, 'error');
      await redis.stop();
      // The API commits changes without the queue: each is recorded, with its event, in PostgreSQL, and fanned out from there.
      await burst(tenant, docs, categories, 5, 1);
      expect(await eventIds(tenant)).toHaveLength(24);
      await everyEventDelivered(tenant, receiver);
      // Redis back, the worker's queues (the SDI's) find it again before the worker is closed.
      await redis.restart();
      const sdi = worker.get<Queue>(getQueueToken(SDI_QUEUE));
      await waitFor(
        () =>
          sdi.getWaitingCount().then(
            () => true,
            () => false,
          ),
        'the SDI queue to reconnect',
        30_000,
      );
      const calls = printed.mock.calls.length;
      printed.mockRestore();
      expect(calls).toBe(0);
    });
  });

  describe('a worker killed in the middle of a burst', () => {
    let redis: PrivateRedis;
    const children: ChildProcess[] = [];

    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await redis?.close();
    });

    function spawnWorker(): ChildProcess {
      const child = spawn(process.execPath, ['dist/server/src/worker.js'], {
        env: { ...process.env, ...env, DATABASE_URL: api.config.databaseUrl, REDIS_URL: redis.url, LOG_LEVEL: 'error' },
        stdio: 'ignore',
      });
      children.push(child);
      return child;
    }

    it('delivers every event at least once after it restarts', async () => {
      redis = await PrivateRedis.start();
      const { tenant, categories, docs, receiver } = await setUp(6);
      receiver.answer = () => ({ status: 204, delayMs: 20 });
      const first = spawnWorker();
      const changes = burst(tenant, docs, categories, 10);
      // A worker process starts in seconds, longer on a busy machine.
      await waitFor(() => receiver.received.length >= 10, 'the burst to be under way', 120_000);
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      await exited;
      await changes;
      const before = receiver.received.length;
      expect(await eventIds(tenant)).toHaveLength(60);
      expect(before).toBeLessThan(60);

      spawnWorker();
      await everyEventDelivered(tenant, receiver);
    }, 300_000);
  });
});
