import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import type { Response } from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { Receiver, waitFor } from '../../test/webhook-receiver.js';
import { startWorker } from '../../test/worker.js';
import type { Category } from '../categories/category.entity.js';
import type { Document } from '../documents/document.entity.js';
import { EVENT_TYPES } from './enabled-events.js';
import { TEST_EVENTS_PER_WINDOW } from './webhook-endpoints.service.js';
import { USER_AGENT } from './webhook-sender.js';
import { API_VERSION } from '../config/api-version.js';

const base = '/api/v1/webhook-endpoints';

/** A 403 `insufficient_permission` naming the permission the call needed. */
function expectMissing(response: Response, permission: string): void {
  expect({ status: response.status, error: response.body.errors?.[0] }).toMatchObject({
    status: 403,
    error: { code: 'insufficient_permission', required_permission: permission },
  });
}

/** A refusal whose every error has `code` (the validation of a member may say several things). */
function expectRefused(response: Response, status: number, code: string): void {
  expect({ status: response.status, codes: [...new Set((response.body.errors ?? []).map((e: { code: string }) => e.code))] }).toEqual({
    status,
    codes: [code],
  });
}

describe('webhook endpoints choose their event types, and are sent test events', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    const env = { WEBHOOK_RETRY_SCHEDULE: '300ms,300ms', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_EXPOSE_LOOPBACK_RESPONSES: 'true' };
    api = await startApi(env);
    worker = await startWorker(api.config.databaseUrl, env);
  });

  afterAll(async () => {
    await worker.close();
    await api.close();
    for (const receiver of receivers) await receiver.close();
  });

  /** A receiver and an endpoint of the tenant pointing at it, created with `body`'s other members. */
  async function endpointOf(tenant: Tenant, body: Record<string, unknown> = {}) {
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const created = await api.http
      .post(base)
      .set(tenant.auth)
      .send({ url: receiver.url, ...body })
      .expect(201);
    receiver.secrets = [created.body.secret];
    return { receiver, endpoint: created.body as { id: string; secret: string; enabled_events: string[] } };
  }

  const change = (tenant: Tenant, document: Document, category: Category) =>
    api.http.patch(`/api/v1/companies/${tenant.companyId}/documents/${document.id}`).set(tenant.auth).send({ category_id: category.id }).expect(200);

  const remove = (tenant: Tenant, document: Document) =>
    api.http.delete(`/api/v1/companies/${tenant.companyId}/documents/${document.id}`).set(tenant.auth).expect(204);

  const deliveries = async (tenant: Tenant, endpointId: string) =>
    (await api.http.get(`${base}/${endpointId}/deliveries?page_size=100`).set(tenant.auth).expect(200)).body.data as Array<Record<string, unknown>>;

  /** The event types of the deliveries made to an endpoint (the fan-out writes all of an event's at once). */
  const deliveredTypes = async (endpointId: string): Promise<string[]> =>
    (
      await api.db.query(`SELECT ev.type FROM deliveries d JOIN events ev ON ev.id = d.event_id WHERE d.endpoint_id = $1 ORDER BY ev.created_at`, [endpointId])
    ).map((r: { type: string }) => r.type);

  it('an endpoint is enabled for every type by default, as ["*"] in every answer', async () => {
    const tenant = await createTenant(api);
    const { endpoint } = await endpointOf(tenant);
    expect(endpoint.enabled_events).toEqual(['*']);
    expect((await api.http.get(`${base}/${endpoint.id}`).set(tenant.auth).expect(200)).body.enabled_events).toEqual(['*']);
    expect((await api.http.get(base).set(tenant.auth).expect(200)).body.data.map((e: { enabled_events: string[] }) => e.enabled_events)).toEqual([['*']]);
    const [row] = await api.db.query(`SELECT enabled_events FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
    expect(row.enabled_events).toEqual(['*']);
  });

  it('an endpoint enabled for document.deleted gets only those; PATCH changes what it gets from then on', async () => {
    const tenant = await createTenant(api);
    const fixtures = new Fixtures(api.db, tenant.companyId);
    const categories = [await fixtures.category({ name: 'Utenze' }), await fixtures.category({ name: 'Servizi' })];
    const kept = await fixtures.document({ number: 'FV-1' });
    const drafts = [await fixtures.document({ number: 'FV-B1', status: 'DRAFT' }), await fixtures.document({ number: 'FV-B2', status: 'DRAFT' })];
    const deletedOnly = await endpointOf(tenant, { enabled_events: ['document.deleted'] });
    const everything = await endpointOf(tenant);
    // Types named twice, in any order, are stored once in the catalogue's order.
    const both = await endpointOf(tenant, { enabled_events: ['document.deleted', 'document.updated', 'document.deleted'] });
    expect(deletedOnly.endpoint.enabled_events).toEqual(['document.deleted']);
    expect(both.endpoint.enabled_events).toEqual(['document.updated', 'document.deleted']);

    await change(tenant, kept, categories[0]);
    await change(tenant, drafts[0], categories[0]);
    await remove(tenant, drafts[0]);
    await waitFor(() => everything.receiver.received.length >= 3 && both.receiver.received.length >= 3, 'the three events at the endpoints of every type');
    await waitFor(() => deletedOnly.receiver.received.length >= 1, 'the deletion at the endpoint of document.deleted');
    expect(everything.receiver.received.map((r) => r.body.event)).toEqual(['document.updated', 'document.updated', 'document.deleted']);
    expect(deletedOnly.receiver.received.map((r) => [r.body.event, r.body.data.id])).toEqual([['document.deleted', drafts[0].id]]);
    expect(await deliveredTypes(deletedOnly.endpoint.id)).toEqual(['document.deleted']);
    expect(deletedOnly.receiver.refused).toEqual([]);

    const patched = await api.http
      .patch(`${base}/${deletedOnly.endpoint.id}`)
      .set(tenant.auth)
      .send({ enabled_events: ['document.updated'] })
      .expect(200);
    expect(patched.body.enabled_events).toEqual(['document.updated']);
    expect((await api.http.get(`${base}/${deletedOnly.endpoint.id}`).set(tenant.auth).expect(200)).body.enabled_events).toEqual(['document.updated']);
    await change(tenant, kept, categories[1]);
    await remove(tenant, drafts[1]);
    await waitFor(() => everything.receiver.received.length >= 5, 'the two new events at the endpoint of every type');
    await waitFor(() => deletedOnly.receiver.received.length >= 2, 'the update at the endpoint now of document.updated');
    expect(deletedOnly.receiver.received.map((r) => [r.body.event, r.body.data.id])).toEqual([
      ['document.deleted', drafts[0].id],
      ['document.updated', kept.id],
    ]);
    expect(await deliveredTypes(deletedOnly.endpoint.id)).toEqual(['document.deleted', 'document.updated']);

    // Back to every type: ["*"].
    const all = await api.http
      .patch(`${base}/${deletedOnly.endpoint.id}`)
      .set(tenant.auth)
      .send({ enabled_events: ['*'] })
      .expect(200);
    expect(all.body.enabled_events).toEqual(['*']);
  });

  it('a replay sends the event even to an endpoint not enabled for its type', async () => {
    const tenant = await createTenant(api);
    const fixtures = new Fixtures(api.db, tenant.companyId);
    const document = await fixtures.document();
    const { receiver, endpoint } = await endpointOf(tenant, { enabled_events: ['document.deleted'] });
    const witness = await endpointOf(tenant);
    await change(tenant, document, await fixtures.category({ name: 'Utenze' }));
    await waitFor(() => witness.receiver.received.length >= 1, 'the update at the endpoint of every type');
    const eventId = witness.receiver.received[0].body.id as string;
    expect(await deliveredTypes(endpoint.id)).toEqual([]);
    const replayed = await api.http.post(`${base}/${endpoint.id}/replay`).set(tenant.auth).send({ event_id: eventId }).expect(202);
    expect(replayed.body).toMatchObject({ event_id: eventId, event: 'document.updated', endpoint_id: endpoint.id });
    await waitFor(() => receiver.received.length >= 1, 'the replayed event');
    expect(receiver.received[0].body).toMatchObject({ id: eventId, event: 'document.updated' });
  });

  it('refuses unknown types with the known ones (422), what is no list of types (400), and types the key cannot read (403)', async () => {
    const tenant = await createTenant(api);
    const send = (body: Record<string, unknown>, auth = tenant.auth) =>
      api.http
        .post(base)
        .set(auth)
        .send({ url: 'https://93.184.215.14/hooks', ...body });
    for (const type of ['document.created.typo', 'webhook.test', 'DOCUMENT.UPDATED']) {
      const refused = await send({ enabled_events: ['document.updated', type] });
      expectError(refused, 422, 'unknown_event_type', '/enabled_events/1');
      for (const known of EVENT_TYPES) expect(refused.body.errors[0].detail).toContain(known);
    }
    expectError(await send({ enabled_events: ['*', 'document.updated'] }), 422, 'unprocessable_entity', '/enabled_events');
    expectRefused(await send({ enabled_events: [] }), 422, 'unprocessable_entity');
    for (const bad of ['document.updated', [1], [null], null, { '0': 'document.updated' }])
      expectRefused(await send({ enabled_events: bad }), 400, 'bad_request');
    const { endpoint } = await endpointOf(tenant);
    expectError(
      await api.http
        .patch(`${base}/${endpoint.id}`)
        .set(tenant.auth)
        .send({ enabled_events: ['nope'] }),
      422,
      'unknown_event_type',
      '/enabled_events/0',
    );
    expectRefused(await api.http.patch(`${base}/${endpoint.id}`).set(tenant.auth).send({ enabled_events: [] }), 422, 'unprocessable_entity');
    expect((await api.http.get(`${base}/${endpoint.id}`).set(tenant.auth).expect(200)).body.enabled_events).toEqual(['*']);

    // f24.* need payments:f24:read; document.* need documents:read, "*" too (every endpoint receives document events).
    const key = async (permissions: string) => ({
      Authorization: `Bearer ${(await api.integrators.createKey(tenant.integratorId, 'development', permissions, permissions)).key}`,
    });
    const documentsOnly = await key('documents:read,webhooks:write');
    const f24Only = await key('payments:f24:read,webhooks:write');
    const refused = await send({ enabled_events: ['document.updated', 'f24.failed'] }, documentsOnly);
    expectMissing(refused, 'payments:f24:read');
    expect(refused.body.errors[0].detail).toContain('f24.failed');
    expect((await send({ enabled_events: ['document.updated'] }, documentsOnly)).status).toBe(201);
    expectMissing(await send({}, f24Only), 'documents:read');
    expectMissing(await send({ enabled_events: ['*'] }, f24Only), 'documents:read');
    // An endpoint of F24 events alone is none of the documents' business.
    const f24Endpoint = await send({ enabled_events: ['f24.processed', 'f24.failed'] }, f24Only);
    expect(f24Endpoint.status).toBe(201);
    expect(f24Endpoint.body).toMatchObject({ enabled_events: ['f24.processed', 'f24.failed'], permissions: ['payments:f24:read', 'webhooks:write'] });

    // Choosing types: the key must read them (403), and so must the endpoint's recorded permissions, which choosing
    // does not widen (409), unless the URL changes in the same request (a new registration, with the key's permissions).
    const documentsEndpoint = (await send({}, documentsOnly).expect(201)).body as { id: string };
    const patch = (body: Record<string, unknown>, auth: { Authorization: string }) => api.http.patch(`${base}/${documentsEndpoint.id}`).set(auth).send(body);
    expectMissing(await patch({ enabled_events: ['f24.processed'] }, documentsOnly), 'payments:f24:read');
    expectError(await patch({ enabled_events: ['f24.processed'] }, tenant.auth), 409, 'conflict', '/enabled_events');
    const moved = await patch({ enabled_events: ['f24.processed'], url: 'https://93.184.215.14/f24' }, tenant.auth).expect(200);
    expect(moved.body).toMatchObject({ enabled_events: ['f24.processed'], permissions: ['*'] });
    // A new URL needs the read permission of the endpoint's types, as they are.
    expectMissing(await patch({ url: 'https://93.184.215.14/elsewhere' }, documentsOnly), 'payments:f24:read');
  });

  it('sends a signed test event to that endpoint only, through the deliveries', async () => {
    const tenant = await createTenant(api);
    const target = await endpointOf(tenant, { enabled_events: ['document.deleted'] });
    const other = await endpointOf(tenant);
    const stranger = await createTenant(api, 'Bianchi S.p.A.');
    const strangers = await endpointOf(stranger);

    const answer = await api.http.post(`${base}/${target.endpoint.id}/test`).set(tenant.auth).expect(202);
    expect(answer.body).toMatchObject({ endpoint_id: target.endpoint.id, event: 'webhook.test', company_id: null, status: 'PENDING', attempts: [] });
    await waitFor(() => target.receiver.received.length >= 1, 'the test event');
    const [received] = target.receiver.received;
    // Verified by the receiver already (standardwebhooks and svix); checked here once more with the secret alone.
    expect(target.receiver.refused).toEqual([]);
    const verified = new Webhook(target.endpoint.secret).verify(received.raw, {
      'webhook-id': received.headers['webhook-id'] as string,
      'webhook-timestamp': received.headers['webhook-timestamp'] as string,
      'webhook-signature': received.headers['webhook-signature'] as string,
    });
    expect(verified).toEqual({
      id: answer.body.event_id,
      type: 'webhook.test',
      event: 'webhook.test',
      api_version: API_VERSION,
      company_id: null,
      created_at: expect.any(String),
      data: { endpoint_id: target.endpoint.id, requested_at: expect.any(String) },
    });
    expect(received.headers['webhook-id']).toBe(answer.body.event_id);
    expect(received.headers['user-agent']).toBe(USER_AGENT);
    expect(() => new Webhook(other.endpoint.secret).verify(received.raw, received.headers as Record<string, string>)).toThrow();

    await waitFor(async () => (await deliveries(tenant, target.endpoint.id))[0]?.status === 'SUCCEEDED', 'the delivery recorded');
    const [delivery] = await deliveries(tenant, target.endpoint.id);
    expect(delivery).toMatchObject({ id: answer.body.id, event_id: answer.body.event_id, event: 'webhook.test', company_id: null, status: 'SUCCEEDED' });
    expect(delivery.attempts).toMatchObject([{ outcome: 'SUCCEEDED', response_status: 204 }]);

    // Nothing went anywhere else, nor became an event of the outbox.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(other.receiver.received).toEqual([]);
    expect(strangers.receiver.received).toEqual([]);
    expect(await deliveries(tenant, other.endpoint.id)).toEqual([]);
    expect(await api.db.query(`SELECT 1 FROM events WHERE type = 'webhook.test' OR id = $1`, [answer.body.event_id])).toEqual([]);
    // A test event is not replayed: send another.
    expectError(
      await api.http.post(`${base}/${target.endpoint.id}/replay`).set(tenant.auth).send({ event_id: answer.body.event_id }),
      404,
      'not_found',
      '/event_id',
    );
  });

  it('retries a test event like any other, and tells a failing receiver’s answer', async () => {
    const tenant = await createTenant(api);
    const { receiver, endpoint } = await endpointOf(tenant);
    receiver.answer = (_request, index) => (index === 0 ? { status: 500, body: 'not yet' } : { status: 200 });
    const answer = await api.http.post(`${base}/${endpoint.id}/test`).set(tenant.auth).expect(202);
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'SUCCEEDED', 'the retried test event');
    const [delivery] = await deliveries(tenant, endpoint.id);
    expect(delivery.attempts).toMatchObject([
      { outcome: 'FAILED', response_status: 500, response_body: 'not yet' },
      { outcome: 'SUCCEEDED', response_status: 200 },
    ]);
    // Both attempts carry the one event id.
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([answer.body.event_id, answer.body.event_id]);
  });

  it('needs webhooks:write and the endpoint enabled, and holds to its rate', async () => {
    const tenant = await createTenant(api);
    const { receiver, endpoint } = await endpointOf(tenant);
    const reader = { Authorization: `Bearer ${(await api.integrators.createKey(tenant.integratorId, 'development', 'webhooks:read', 'webhooks:read')).key}` };
    const writer = { Authorization: `Bearer ${(await api.integrators.createKey(tenant.integratorId, 'development', 'webhooks:write', 'webhooks:write')).key}` };
    const test = (auth: { Authorization: string }, id = endpoint.id) => api.http.post(`${base}/${id}/test`).set(auth);
    expectMissing(await test(reader), 'webhooks:write');
    // No read permission is needed: a test event carries no company's data.
    expect((await test(writer)).status).toBe(202);
    const stranger = await createTenant(api, 'Verdi S.r.l.');
    expectError(await test(stranger.auth), 404, 'not_found');
    expectError(await test(tenant.auth, 'not-a-uuid'), 404, 'not_found');

    await api.http.patch(`${base}/${endpoint.id}`).set(tenant.auth).send({ enabled: false }).expect(200);
    const disabled = await test(tenant.auth);
    expectError(disabled, 409, 'conflict');
    expect(disabled.body.errors[0].detail).toContain('"enabled": true');
    await api.http.patch(`${base}/${endpoint.id}`).set(tenant.auth).send({ enabled: true }).expect(200);

    // One was sent already; the window holds TEST_EVENTS_PER_WINDOW, asked for side by side.
    const burst = await Promise.all(Array.from({ length: TEST_EVENTS_PER_WINDOW + 2 }, () => test(tenant.auth)));
    expect(burst.filter((r) => r.status === 202)).toHaveLength(TEST_EVENTS_PER_WINDOW - 1);
    const limited = burst.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    for (const response of limited) {
      expectError(response, 429, 'too_many_requests');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    await waitFor(() => receiver.received.length >= TEST_EVENTS_PER_WINDOW, 'every test event');
    expect(new Set(receiver.received.map((r) => r.body.id)).size).toBe(TEST_EVENTS_PER_WINDOW);
  });
});
