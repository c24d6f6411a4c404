import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { Fixtures } from '../../test/fixtures.js';
import { Receiver, waitFor } from '../../test/webhook-receiver.js';
import { startWorker } from '../../test/worker.js';
import { guardedLookup, LoopbackAddressError } from './url-guard.js';

describe('development: what a loopback receiver answers is not shown', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let tenant: Tenant;
  let receiver: Receiver & { url: string };
  const base = '/api/v1/webhook-endpoints';

  beforeAll(async () => {
    // WEBHOOK_EXPOSE_LOOPBACK_RESPONSES left at its default.
    const env = { WEBHOOK_RETRY_SCHEDULE: '300ms', WEBHOOK_TIMEOUT_MS: '2000' };
    api = await startApi(env);
    worker = await startWorker(api.config.databaseUrl, env);
    tenant = await createTenant(api);
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await worker.close();
    await api.close();
    await receiver.close();
  });

  /** Registers `url`, changes a document, and returns the endpoint's delivery once it is settled. */
  async function deliver(url: string) {
    const endpoint = (await api.http.post(base).set(tenant.auth).send({ url }).expect(201)).body as { id: string; secret: string };
    receiver.secrets = [endpoint.secret];
    const fixtures = new Fixtures(api.db, tenant.companyId);
    const document = await fixtures.document();
    const category = await fixtures.category({ name: `Servizi ${url}` });
    await api.http.patch(`/api/v1/companies/${tenant.companyId}/documents/${document.id}`).set(tenant.auth).send({ category_id: category.id }).expect(200);
    const list = async () => (await api.http.get(`${base}/${endpoint.id}/deliveries`).set(tenant.auth).expect(200)).body.data;
    await waitFor(async () => ['SUCCEEDED', 'FAILED'].includes((await list())[0]?.status), 'the delivery to settle');
    const [delivery] = await list();
    const stored = await api.db.query(`SELECT response_body FROM delivery_attempts WHERE delivery_id = $1`, [delivery.id]);
    return { delivery, stored };
  }

  it('keeps the status of an answer from 127.0.0.1 or localhost, never its body', async () => {
    receiver.answer = () => ({ status: 200, body: '{"redis_version":"7.2.4","role":"master"}' });
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      const { delivery, stored } = await deliver(url);
      expect([url, delivery.status, delivery.attempts]).toEqual([
        url,
        'SUCCEEDED',
        [expect.objectContaining({ outcome: 'SUCCEEDED', response_status: 200, response_body: null, error: null })],
      ]);
      expect(stored).toEqual([{ response_body: null }]);
    }
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
  });

  it('does not tell where a loopback receiver redirects', async () => {
    receiver.answer = () => ({ status: 307, headers: { location: 'http://127.0.0.1:6379/internal' }, body: 'moved' });
    const { delivery } = await deliver(receiver.url);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'FAILED', response_status: 307, response_body: null, error: 'redirect not followed' });
  });

  it('keeps the pools apart: the public one refuses a name that resolves to loopback; in production none reaches it', async () => {
    const lookup = (reach: 'public' | 'loopback', host: string) =>
      new Promise<Error | null>((resolve) => guardedLookup('development', reach)(host, {}, (error) => resolve(error)));
    expect(await lookup('public', 'localhost')).toBeInstanceOf(LoopbackAddressError);
    expect(await lookup('loopback', 'localhost')).toBeNull();
    // In production no pool reaches loopback.
    expect((await new Promise<Error | null>((resolve) => guardedLookup('production', 'loopback')('localhost', {}, resolve)))?.message).toMatch(/loopback/);
  });
});
