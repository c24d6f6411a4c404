import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { Receiver, waitFor } from '../../test/webhook-receiver.js';
import { startWorker } from '../../test/worker.js';
import type { Category } from '../categories/category.entity.js';
import { ManualClock } from '../common/clock/drivers/manual.driver.js';
import { DeliveryEngine } from '../deliveries/delivery-engine.js';
import type { Document } from '../documents/document.entity.js';
import { EventFanOut } from './event-fan-out.js';
import { USER_AGENT } from './webhook-sender.js';

/** A schedule as production's: the tests move the worker's clock instead of waiting for it. */
const RETRY_SCHEDULE = '1m,5m,30m';

describe('webhook delivery', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  const clock = new ManualClock();
  let smtp: SMTPServer;
  const mails: Array<{ to: string[]; raw: string }> = [];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          // Quoted-printable soft line breaks undone, so the text reads as sent.
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks)
              .toString('utf8')
              .replace(/=\r?\n/g, ''),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const env = {
      WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_DISABLE_AFTER_HOURS: '1',
      // The receivers run on this machine: their answers are shown as to a developer who turned that on.
      WEBHOOK_EXPOSE_LOOPBACK_RESPONSES: 'true',
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    };
    api = await startApi(env);
    worker = await startWorker(api.config.databaseUrl, env, { clock });
  });

  /** Moves the worker's clock past any retry due (the schedule's longest wait) until `done`. */
  const retryUntil = (done: () => Promise<boolean> | boolean, what: string) =>
    waitFor(async () => {
      if (await done()) return true;
      await clock.advance(31 * 60_000);
      return false;
    }, what);

  afterAll(async () => {
    await worker.close();
    await api.close();
    for (const receiver of receivers) await receiver.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  /** A tenant with documents to change, a receiver and an endpoint pointing at it. */
  async function setUp(documents = 1) {
    const tenant = await createTenant(api);
    const fixtures = new Fixtures(api.db, tenant.companyId);
    const categories = [await fixtures.category({ name: 'Utenze' }), await fixtures.category({ name: 'Servizi' })];
    const docs: Document[] = [];
    for (let i = 0; i < documents; i++) docs.push(await fixtures.document({ number: `FV-${i}` }));
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const endpoint = await api.http.post('/api/v1/webhook-endpoints').set(tenant.auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [endpoint.body.secret];
    return { tenant, categories, docs, receiver, endpoint: endpoint.body as { id: string; secret: string } };
  }

  /** Changes a document's category (one event each time it changes). */
  const change = (tenant: Tenant, document: Document, category: Category) =>
    api.http.patch(`/api/v1/companies/${tenant.companyId}/documents/${document.id}`).set(tenant.auth).send({ category_id: category.id }).expect(200);

  const deliveries = async (tenant: Tenant, endpointId: string) =>
    (await api.http.get(`/api/v1/webhook-endpoints/${endpointId}/deliveries?page_size=100`).set(tenant.auth).expect(200)).body.data;

  it('delivers every event of a burst, signed, verifiable by standardwebhooks and svix, in each document’s order', async () => {
    const { tenant, categories, docs, receiver } = await setUp(5);
    // Documents change side by side, each one eight times in a row (each change alternates its category).
    await Promise.all(
      docs.map(async (doc) => {
        for (let round = 0; round < 8; round++) await change(tenant, doc, categories[round % 2]);
      }),
    );
    const events: Array<{ id: string }> = await api.db.query(`SELECT id FROM events WHERE company_id = $1`, [tenant.companyId]);
    expect(events).toHaveLength(40);
    // At least once: an attempt that timed out on a busy machine is sent again, so an event may arrive twice; what
    // counts is that each arrives, and that first arrivals follow each document's order.
    const unique = () => new Set(receiver.received.map((r) => r.body.id)).size;
    await waitFor(() => unique() >= 40, '40 deliveries', 90_000);

    expect(receiver.refused).toEqual([]);
    expect([...new Set(receiver.received.map((r) => r.body.id))].sort()).toEqual(events.map((e) => e.id).sort());
    for (const { headers, body } of receiver.received) {
      expect(headers['webhook-id']).toBe(body.id);
      expect(headers['content-type']).toBe('application/json');
      expect(headers['user-agent']).toBe(USER_AGENT);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(Object.keys(body)).toEqual(['id', 'type', 'event', 'api_version', 'company_id', 'created_at', 'data']);
      expect(body).toMatchObject({ event: 'document.updated', company_id: tenant.companyId });
    }
    for (const doc of docs) {
      const firsts = receiver.received.filter((r, i) => receiver.received.findIndex((o) => o.body.id === r.body.id) === i);
      const versions = firsts.filter((r) => r.body.data.id === doc.id).map((r) => r.body.data.version);
      expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    }
  }, 180_000);

  it('holds a delivery behind an earlier event of its document fanned out later, and lets go of one a race left waiting', async () => {
    const { tenant, docs, receiver, endpoint } = await setUp();
    // Two events of one document. Another worker holds the first one's row (its fan-out is under way), so this
    // worker's fan-out, driven here batch by batch, takes the second one first.
    const fanOut = worker.get(EventFanOut);
    await fanOut.onApplicationShutdown();
    const event = async (version: number, at: string): Promise<string> =>
      (
        await api.db.query(`INSERT INTO events (company_id, type, payload, created_at) VALUES ($1, 'document.updated', $2, $3) RETURNING id`, [
          tenant.companyId,
          { id: docs[0].id, version },
          at,
        ])
      )[0].id;
    const first = await event(2, '2026-01-01T10:00:00Z');
    const second = await event(3, '2026-01-01T10:00:01Z');
    const other = api.db.createQueryRunner();
    await other.startTransaction();
    await other.query(`SELECT 1 FROM events WHERE id = $1 FOR UPDATE`, [first]);
    expect(await fanOut.fanOut()).toBe(1);
    const [held] = await api.db.query(`SELECT waiting FROM deliveries WHERE event_id = $1`, [second]);
    expect(held.waiting).toBe(true);
    // Nothing lets it go while the earlier event is not fanned out.
    expect(await worker.get(DeliveryEngine).releaseStranded()).toBe(0);
    expect(receiver.received).toEqual([]);
    await other.rollbackTransaction();
    await other.release();
    expect(await fanOut.fanOut()).toBe(1);
    fanOut.onApplicationBootstrap();
    await waitFor(() => receiver.received.length >= 2, 'both deliveries');
    expect(receiver.received.map((r) => r.body.id)).toEqual([first, second]);

    // A delivery left waiting with nothing before it (a fan-out and a recording that missed each other) goes at the
    // engine's next look for them, 5 s later on its clock.
    const [{ id: third }] = await api.db.query(
      `INSERT INTO events (company_id, type, payload, created_at, dispatched_at) VALUES ($1, 'document.updated', $2, '2026-01-01T10:00:02Z', now()) RETURNING id`,
      [tenant.companyId, { id: docs[0].id, version: 4 }],
    );
    await api.db.query(
      `INSERT INTO deliveries (channel, endpoint_id, event_id, ordering_key, ordering_at, waiting) VALUES ('webhook', $1, $2, $3, '2026-01-01T10:00:02Z', true)`,
      [endpoint.id, third, docs[0].id],
    );
    await clock.advance(5000);
    await waitFor(() => receiver.received.length >= 3, 'the stranded delivery');
    expect(receiver.received[2].body.id).toBe(third);
  });
  it("delivers document.deleted after the document's earlier events, signed the same way, with the next version", async () => {
    const { tenant, categories, receiver, endpoint } = await setUp(0);
    const draft = await new Fixtures(api.db, tenant.companyId).document({ number: 'FV-BOZZA', status: 'DRAFT' });
    await change(tenant, draft, categories[0]);
    await change(tenant, draft, categories[1]);
    await api.http.delete(`/api/v1/companies/${tenant.companyId}/documents/${draft.id}`).set(tenant.auth).expect(204);
    await waitFor(() => receiver.received.length >= 3, '3 deliveries');

    expect(receiver.refused).toEqual([]);
    expect(receiver.received.map((r) => [r.body.event, r.body.data.version])).toEqual([
      ['document.updated', 2],
      ['document.updated', 3],
      ['document.deleted', 4],
    ]);
    const deleted = receiver.received[2].body;
    expect(Object.keys(deleted)).toEqual(['id', 'type', 'event', 'api_version', 'company_id', 'created_at', 'data']);
    expect(deleted).toMatchObject({ company_id: tenant.companyId, data: { id: draft.id, number: 'FV-BOZZA', category_id: categories[1].id, flows: [] } });
    expect(receiver.received[2].headers['webhook-id']).toBe(deleted.id);
    // The attempt is recorded just after the receiver answered.
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'SUCCEEDED', 'the delivery to be recorded');
    const [latest] = await deliveries(tenant, endpoint.id);
    expect(latest).toMatchObject({ event_id: deleted.id, event: 'document.deleted', status: 'SUCCEEDED' });
  });

  it('retries a failed attempt with the same webhook-id, and records both attempts', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    receiver.answer = (_request, index) => (index === 0 ? { status: 500, body: 'database down' } : { status: 200, body: 'ok' });
    await change(tenant, docs[0], categories[0]);
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.attempts.length === 1, 'the first attempt');
    // Retried a minute later (give or take 10%) on the worker's clock, and not before.
    const [failed] = await deliveries(tenant, endpoint.id);
    const wait = new Date(failed.next_attempt_at).getTime() - clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(50_000);
    expect(wait).toBeLessThanOrEqual(66_000);
    await clock.advance(50_000);
    expect(receiver.received).toHaveLength(1);
    await clock.advance(20_000);
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'SUCCEEDED', 'the delivery to succeed');

    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    const [delivery] = await deliveries(tenant, endpoint.id);
    expect(delivery).toMatchObject({ event_id: receiver.received[0].body.id, status: 'SUCCEEDED', next_attempt_at: null, completed_at: expect.any(String) });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ outcome: 'FAILED', response_status: 500, response_body: 'database down', error: null }),
      expect.objectContaining({ outcome: 'SUCCEEDED', response_status: 200, response_body: 'ok', error: null }),
    ]);

    // The filter takes the API's uppercase values (the column stores lowercase ones) and refuses the stored spelling.
    const list = (status: string) => api.http.get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries?filter[status]=${status}`).set(tenant.auth);
    expect((await list('SUCCEEDED')).body.data.map((d: { id: string }) => d.id)).toEqual([delivery.id]);
    expect((await list('FAILED')).body.data).toEqual([]);
    const notIn = await api.http.get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries?filter[status__notIn]=PENDING,FAILED`).set(tenant.auth);
    expect(notIn.body.data.map((d: { id: string }) => d.id)).toEqual([delivery.id]);
    expectError(await list('succeeded'), 400, 'invalid_query_parameter', '/query/filter[status]');
  });

  it('keeps the first 1 KB of the answer in whole characters, never half of one', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    // 5 bytes a pair: the 1024th byte falls inside a '€'.
    const answer = 'é€'.repeat(1000);
    receiver.answer = () => ({ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: answer });
    await change(tenant, docs[0], categories[0]);
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'SUCCEEDED', 'the delivery to succeed');
    const [{ attempts }] = await deliveries(tenant, endpoint.id);
    const excerpt: string = attempts[0].response_body;
    expect(excerpt).not.toContain('\uFFFD');
    expect(answer.startsWith(excerpt)).toBe(true);
    expect(Buffer.byteLength(excerpt)).toBe(1022);
  });

  it('marks a delivery failed after the last attempt, and keeps it', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    receiver.answer = () => ({ status: 502 });
    await change(tenant, docs[0], categories[0]);
    await retryUntil(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'FAILED', 'the delivery to fail');
    const [delivery] = await deliveries(tenant, endpoint.id);
    expect(delivery.attempts).toHaveLength(4);
    expect(receiver.received).toHaveLength(4);
  });

  it('does not follow redirects', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    const target = await Receiver.start();
    receivers.push(target);
    target.secrets = receiver.secrets;
    receiver.answer = () => ({ status: 307, headers: { location: target.url } });
    await change(tenant, docs[0], categories[0]);
    // The first attempt is recorded before the clock moves: moved while it is in flight, the engine's cut-off (on the
    // same clock) would end it first.
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.attempts.length === 1, 'the first attempt');
    await retryUntil(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'FAILED', 'the delivery to fail');
    const [delivery] = await deliveries(tenant, endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'FAILED', response_status: 307, error: `redirect not followed (to ${target.url})` });
    expect(target.received).toEqual([]);
  });

  it('gives up on an attempt slower than the timeout, and tries again', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    receiver.answer = (_request, index) => (index === 0 ? { status: 200, delayMs: 3000 } : { status: 204 });
    await change(tenant, docs[0], categories[0]);
    // The clock stands still while the attempt runs out its own (real) timeout, then moves to the retry.
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.attempts.length === 1, 'the first attempt');
    await retryUntil(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'SUCCEEDED', 'the delivery to succeed');
    const [delivery] = await deliveries(tenant, endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'FAILED', response_status: null, error: 'timed out after 1000 ms' });
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(900);
    expect(delivery.attempts[0].duration_ms).toBeLessThan(2500);
    expect(delivery.attempts[1]).toMatchObject({ outcome: 'SUCCEEDED', response_status: 204 });
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    receiver.answer = () => ({ status: 410 });
    await change(tenant, docs[0], categories[0]);
    await waitFor(
      async () => (await api.http.get(`/api/v1/webhook-endpoints/${endpoint.id}`).set(tenant.auth)).body.enabled === false,
      'the endpoint to be disabled',
    );
    const read = await api.http.get(`/api/v1/webhook-endpoints/${endpoint.id}`).set(tenant.auth);
    expect(read.body).toMatchObject({ enabled: false, disabled_reason: 'GONE', disabled_at: expect.any(String) });
    await change(tenant, docs[0], categories[1]);
    await waitFor(
      async () => (await api.db.query(`SELECT 1 FROM events WHERE company_id = $1 AND dispatched_at IS NULL`, [tenant.companyId])).length === 0,
      'the second event fanned out',
    );
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(tenant, endpoint.id)).toHaveLength(1);
  });

  it('honours Retry-After on 429 and 503', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    // Ten minutes: longer than the schedule's first wait (a minute), so the receiver's word counts.
    receiver.answer = (_request, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '600' } } : { status: 204 });
    await change(tenant, docs[0], categories[0]);
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.attempts.length === 1, 'the first attempt');
    const [delivery] = await deliveries(tenant, endpoint.id);
    expect(new Date(delivery.next_attempt_at).getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(590_000);
    await clock.advance(5 * 60_000);
    expect(receiver.received).toHaveLength(1);
    await clock.advance(6 * 60_000);
    await waitFor(() => receiver.received.length === 2, 'the retry');
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    const rotated = await api.http.post(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).set(tenant.auth).expect(200);
    receiver.secrets = [endpoint.secret];
    await change(tenant, docs[0], categories[0]);
    await waitFor(() => receiver.received.length === 1, 'a delivery verified with the old secret');
    receiver.secrets = [rotated.body.secret];
    await change(tenant, docs[0], categories[1]);
    await waitFor(() => receiver.received.length === 2, 'a delivery verified with the new secret');
    expect(String(receiver.received[1].headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(receiver.refused).toEqual([]);
  });

  it('disables an endpoint failing for longer than WEBHOOK_DISABLE_AFTER_HOURS and tells the integrator by e-mail', async () => {
    const { tenant, categories, docs, receiver, endpoint } = await setUp();
    await api.db.query(`UPDATE integrators SET contact_email = 'dev@erp.example' WHERE id = $1`, [tenant.integratorId]);
    receiver.answer = () => ({ status: 500 });
    // The endpoint has been failing for two hours (the test's "days").
    await api.db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '2 hours' WHERE id = $1`, [endpoint.id]);
    await change(tenant, docs[0], categories[0]);
    await waitFor(() => mails.some((mail) => mail.raw.includes(endpoint.id)), 'the notice e-mail');

    const read = await api.http.get(`/api/v1/webhook-endpoints/${endpoint.id}`).set(tenant.auth);
    expect(read.body).toMatchObject({ enabled: false, disabled_reason: 'FAILING' });
    const mail = mails.find((m) => m.raw.includes(endpoint.id))!;
    expect(mail.to).toEqual(['dev@erp.example']);
    expect(mail.raw).toContain('Subject: Flusso: webhook endpoint disabled');
    expect(mail.raw).toContain('{"enabled": true}');

    receiver.answer = () => ({ status: 204 });
    await api.http.patch(`/api/v1/webhook-endpoints/${endpoint.id}`).set(tenant.auth).send({ enabled: true }).expect(200);
    await waitFor(async () => (await deliveries(tenant, endpoint.id))[0]?.status === 'SUCCEEDED', 'the pending delivery to resume');
  });
});
