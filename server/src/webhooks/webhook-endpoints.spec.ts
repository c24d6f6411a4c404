import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { decryptSecret } from './webhook-secrets.js';

describe('webhook endpoints', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  const base = '/api/v1/webhook-endpoints';

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
  });

  afterAll(() => api.close());

  it('creates an endpoint whose secret is shown once and stored only encrypted', async () => {
    const created = await api.http.post(base).set(rossi.auth).send({ url: 'http://127.0.0.1:4000/hooks', description: ' ERP ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: 'http://127.0.0.1:4000/hooks',
      // Stored as sent (text in, text out): spaces included.
      description: ' ERP ',
      enabled: true,
      permissions: ['*'],
      enabled_events: ['*'],
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(24);

    const stored = await api.db.getRepository(WebhookEndpoint).findOneByOrFail({ id: created.body.id });
    expect(stored.secret).not.toContain(created.body.secret.slice(6));
    expect(decryptSecret(stored.secret, api.config.webhooks.secretKey)).toBe(created.body.secret);

    const read = await api.http.get(`${base}/${created.body.id}`).set(rossi.auth);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body).toEqual({ ...created.body, secret: undefined });
  });

  it('lists, updates and deletes only the integrator’s own endpoints', async () => {
    const own = [];
    for (const n of [1, 2, 3])
      own.push(
        (
          await api.http
            .post(base)
            .set(verdi.auth)
            .send({ url: `https://93.184.215.14/${n}` })
        ).body.id,
      );
    const page = await api.http.get(`${base}?page_size=2`).set(verdi.auth);
    expect(page.status).toBe(200);
    expect(ids(page)).toEqual(own.slice(0, 2));
    const next = await api.http.get(`${base}?page_size=2&cursor=${page.body.page.cursor}`).set(verdi.auth);
    expect(ids(next)).toEqual([own[2]]);
    expect(next.body.page.cursor).toBeNull();

    expectError(await api.http.get(`${base}/${own[0]}`).set(rossi.auth), 404, 'not_found');
    expectError(await api.http.patch(`${base}/${own[0]}`).set(rossi.auth).send({ enabled: false }), 404, 'not_found');
    expectError(await api.http.delete(`${base}/${own[0]}`).set(rossi.auth), 404, 'not_found');

    const disabled = await api.http.patch(`${base}/${own[0]}`).set(verdi.auth).send({ enabled: false, description: 'paused' });
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: 'REQUESTED', disabled_at: expect.any(String), description: 'paused' });
    const enabled = await api.http.patch(`${base}/${own[0]}`).set(verdi.auth).send({ enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
    expectError(await api.http.patch(`${base}/${own[0]}`).set(verdi.auth).send({}), 400, 'bad_request');
    expectError(await api.http.patch(`${base}/${own[0]}`).set(verdi.auth).send({ enabled: 'yes' }), 400, 'bad_request', '/enabled');

    expect((await api.http.delete(`${base}/${own[1]}`).set(verdi.auth)).status).toBe(204);
    expectError(await api.http.get(`${base}/${own[1]}`).set(verdi.auth), 404, 'not_found');
    expectError(await api.http.get(`${base}/not-a-uuid`).set(verdi.auth), 404, 'not_found');
  });

  it('rotates the secret: a new one shown once, the old one kept for 24 hours', async () => {
    const created = (await api.http.post(base).set(rossi.auth).send({ url: 'https://93.184.215.14/rotate' })).body;
    const rotated = await api.http.post(`${base}/${created.id}/rotate-secret`).set(rossi.auth);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const stored = await api.db.getRepository(WebhookEndpoint).findOneByOrFail({ id: created.id });
    expect(decryptSecret(stored.previousSecret!, api.config.webhooks.secretKey)).toBe(created.secret);
    const overlap = stored.previousSecretExpiresAt!.getTime() - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('refuses URLs that are not URLs, or that reach private addresses', async () => {
    expectError(await api.http.post(base).set(rossi.auth).send({}), 400, 'bad_request', '/url');
    expectError(await api.http.post(base).set(rossi.auth).send({ url: 'not a url' }), 422, 'webhook_url_not_allowed', '/url');
    expectError(await api.http.post(base).set(rossi.auth).send({ url: 'ftp://hooks.example.com/' }), 422, 'webhook_url_not_allowed', '/url');
    expectError(await api.http.post(base).set(rossi.auth).send({ url: 'http://10.0.0.7/hooks' }), 422, 'webhook_url_not_allowed', '/url');
    expectError(await api.http.post(base).set(rossi.auth).send({ url: 'http://169.254.169.254/latest/meta-data' }), 422, 'webhook_url_not_allowed', '/url');
    expectError(await api.http.post(base).set(rossi.auth).send({ url: 'http://[fd00::1]/' }), 422, 'webhook_url_not_allowed', '/url');
    expectError(await api.http.post(base).set(rossi.auth).send({ url: 'http://[::ffff:192.168.1.1]/' }), 422, 'webhook_url_not_allowed', '/url');
    // Development takes a receiver on the developer's own machine.
    expect((await api.http.post(base).set(rossi.auth).send({ url: 'http://localhost:4000/hooks' })).status).toBe(201);
  });

  it('replays an event of a granted company, and only those', async () => {
    const fixtures = new Fixtures(api.db, rossi.companyId);
    const category = await fixtures.category({ name: 'Servizi' });
    const document = await fixtures.document();
    await api.http.patch(`/api/v1/companies/${rossi.companyId}/documents/${document.id}`).set(rossi.auth).send({ category_id: category.id }).expect(200);
    const [event] = await api.db.query(`SELECT id FROM events WHERE payload->>'id' = $1`, [document.id]);
    const endpoint = (await api.http.post(base).set(rossi.auth).send({ url: 'https://93.184.215.14/replay' })).body;

    const replayed = await api.http.post(`${base}/${endpoint.id}/replay`).set(rossi.auth).send({ event_id: event.id });
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({
      endpoint_id: endpoint.id,
      event_id: event.id,
      event: 'document.updated',
      company_id: rossi.companyId,
      status: 'PENDING',
      attempts: [],
    });
    const deliveries = await api.http.get(`${base}/${endpoint.id}/deliveries?filter[status]=PENDING`).set(rossi.auth);
    expect(deliveries.status).toBe(200);
    expect(ids(deliveries)).toEqual([replayed.body.id]);

    const other = (await api.http.post(base).set(verdi.auth).send({ url: 'https://93.184.215.14/other' })).body;
    expectError(await api.http.post(`${base}/${other.id}/replay`).set(verdi.auth).send({ event_id: event.id }), 404, 'not_found', '/event_id');
    expectError(await api.http.post(`${base}/${other.id}/replay`).set(verdi.auth).send({}), 400, 'bad_request', '/event_id');
    expectError(
      await api.http.get(`${base}/${endpoint.id}/deliveries?filter[status]=late`).set(rossi.auth),
      400,
      'invalid_query_parameter',
      '/query/filter[status]',
    );
  });
});

describe('webhook endpoints in production', () => {
  let api: TestApi;
  let tenant: Tenant;

  beforeAll(async () => {
    api = await startApi({ FLUSSO_ENV: 'production', API_KEY_PEPPER: 'x', WEBHOOK_SECRET_KEY: 'y', INVOICE_LINK_SECRET: 'z', TRUST_PROXY: 'true' });
    tenant = await createTenant(api);
  });

  afterAll(() => api.close());

  const create = (url: string) => api.http.post('/api/v1/webhook-endpoints').set(tenant.auth).set('x-forwarded-proto', 'https').send({ url });

  it('takes HTTPS URLs of public addresses only', async () => {
    expectError(await create('http://93.184.215.14/hooks'), 422, 'webhook_url_not_allowed', '/url', 'url must use https.');
    expectError(await create('https://127.0.0.1/hooks'), 422, 'webhook_url_not_allowed', '/url', /loopback/);
    expectError(await create('https://localhost/hooks'), 422, 'webhook_url_not_allowed', '/url', /loopback/);
    expectError(await create('https://192.168.1.20/hooks'), 422, 'webhook_url_not_allowed', '/url', /private/);
    expectError(await create('https://100.64.0.1/hooks'), 422, 'webhook_url_not_allowed', '/url', /carrierGradeNat/);
    expectError(await create('https://[fe80::1]/hooks'), 422, 'webhook_url_not_allowed', '/url', /linkLocal/);
    // IPv4-compatible IPv6 addresses are judged as the IPv4 address they carry.
    expectError(await create('https://[::127.0.0.1]/'), 422, 'webhook_url_not_allowed', '/url', /carries the IPv4 address 127\.0\.0\.1, a loopback/);
    expectError(await create('https://[::a9fe:a9fe]/'), 422, 'webhook_url_not_allowed', '/url', /carries the IPv4 address 169\.254\.169\.254, a linkLocal/);
    expectError(await create('https://no-such-host.invalid/hooks'), 422, 'webhook_url_not_allowed', '/url', /does not resolve/);
    expect((await create('https://93.184.215.14/hooks')).status).toBe(201);
  });
});

describe('the webhook page’s test vector', () => {
  it('is what Flusso signs, and what standardwebhooks verifies', async () => {
    const { readFileSync } = await import('node:fs');
    const { Webhook } = await import('standardwebhooks');
    const { secretKey, sign } = await import('./webhook-secrets.js');
    const page = readFileSync('portal/app/content/basics/webhook.md', 'utf8');
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = '0c0eceed-e771-41c4-8911-8681919d1ba5';
    const body = `{"id":"${id}","event":"document.updated"}`;
    const signature = sign(secretKey(secret), id, 1794568803, body);
    expect(page).toContain(`webhook-signature: ${signature}`);
    expect(new Webhook(secret).sign(id, new Date(1794568803_000), body)).toBe(signature);
  });
});
