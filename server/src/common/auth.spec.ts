import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { apiClient, createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { createApi } from '../app.js';

/** A second API process on the same database and Redis, as behind a load balancer. */
async function sibling(api: TestApi, overrides: Partial<TestApi['config']> = {}): Promise<NestFastifyApplication> {
  const app = await createApi({ ...api.config, ...overrides });
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

const NOT_VALID = 'The API key is not valid, has been revoked or has expired.';

describe('authentication', () => {
  let api: TestApi;
  let rossi: Tenant;
  let other: NestFastifyApplication;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api);
    other = await sibling(api);
  });

  afterAll(async () => {
    await other.close();
    await api.close();
  });

  const companies = (authorization?: string) => {
    const call = api.http.get('/api/v1/companies');
    return authorization === undefined ? call : call.set('Authorization', authorization);
  };

  it('accepts a valid key and reports the rate limit', async () => {
    const response = await companies(`Bearer ${rossi.key}`).expect(200);
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual([rossi.companyId]);
    expect(response.headers['x-ratelimit-limit']).toBe('600');
    expect(Number(response.headers['x-ratelimit-remaining'])).toBeLessThan(600);
    await companies(`bearer ${rossi.key}`).expect(200);
  });

  it('no key: 401 unauthorized with a WWW-Authenticate challenge', async () => {
    const response = await companies();
    expectError(response, 401, 'unauthorized', undefined, 'Send an API key as a bearer token: "Authorization: Bearer <API key>".');
    expect(response.headers['www-authenticate']).toBe('Bearer realm="flusso"');
    // No key to count against: the headers carry the failed authentications the address may make (failed-auth.spec).
    expect(response.headers['x-ratelimit-limit']).toBe('20');
    expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expectError(await api.http.get(`/api/v1/companies/${rossi.companyId}/accounts`), 401, 'unauthorized');
    expectError(await api.http.get('/api/v1/counterparts/search?vat_number=IT01234567890'), 401, 'unauthorized');
  });

  it('a malformed Authorization header: 401', async () => {
    for (const header of [
      `Basic ${Buffer.from(`x:${rossi.key}`).toString('base64')}`,
      'Bearer',
      'Bearer ',
      `Token ${rossi.key}`,
      `Bearer ${rossi.key} extra`,
      rossi.key,
    ]) {
      expectError(await companies(header), 401, 'unauthorized', undefined, 'The Authorization header must be "Bearer <API key>".');
    }
  });

  it('an unknown, altered or malformed key: 401 without saying which', async () => {
    const last = rossi.key.at(-1) === 'a' ? 'b' : 'a';
    for (const key of [
      `fls_dev_${'A'.repeat(32)}`,
      rossi.key.slice(0, -1) + last,
      rossi.key.slice(0, -1),
      `${rossi.key}x`,
      rossi.key.replace('fls_dev_', 'fls_test_'),
      rossi.key.toUpperCase(),
      "fls_dev_'OR'1'='1'--aaaaaaaaaaaaaaaaaa",
      `fls_dev_${'é'.repeat(32)}`,
    ]) {
      expectError(await companies(`Bearer ${key}`), 401, 'unauthorized', undefined, NOT_VALID);
    }
  });

  it('a production key on the development server: 401 with a clear message', async () => {
    const production = await api.integrators.createKey(rossi.integratorId, 'production', 'prod');
    expect(production.key).toMatch(/^fls_prod_[A-Za-z0-9]{32}$/);
    expectError(
      await companies(`Bearer ${production.key}`),
      401,
      'unauthorized',
      undefined,
      'This is a production API key, but this is the development environment; use a key starting with fls_dev_.',
    );
  });

  it('a revoked key is refused at once by every process, despite their caches', async () => {
    const tenant = await createTenant(api, 'Gialli Arredamenti S.r.l.');
    const [key] = await api.integrators.listKeys(tenant.integratorId);
    // Both processes have verified (and cached) the key.
    await api.http.get('/api/v1/companies').set(tenant.auth).expect(200);
    await apiClient(other).get('/api/v1/companies').set(tenant.auth).expect(200);
    await api.integrators.revokeKey(key.id);
    expectError(await api.http.get('/api/v1/companies').set(tenant.auth), 401, 'unauthorized', undefined, NOT_VALID);
    expectError(await apiClient(other).get('/api/v1/companies').set(tenant.auth), 401, 'unauthorized', undefined, NOT_VALID);
    // The integrator's other keys still work.
    const fresh = await api.integrators.createKey(tenant.integratorId, 'development', 'second');
    await api.http.get('/api/v1/companies').set('Authorization', `Bearer ${fresh.key}`).expect(200);
  });

  it('a grant made after a key was cached takes effect at once', async () => {
    const tenant = await createTenant(api, 'Blu Servizi S.r.l.');
    const extra = await api.integrators.createCompany({ name: 'Blu Immobiliare S.r.l.', country: 'IT', fiscal_regime: 'RF01' });
    expectError(await api.http.get(`/api/v1/companies/${extra.id}/accounts`).set(tenant.auth), 403, 'forbidden');
    await api.integrators.grant(tenant.integratorId, extra.id);
    await api.http.get(`/api/v1/companies/${extra.id}/accounts`).set(tenant.auth).expect(200);
    const listed = await api.http.get('/api/v1/companies').set(tenant.auth).expect(200);
    expect(listed.body.data.map((c: { id: string }) => c.id).sort()).toEqual([tenant.companyId, extra.id].sort());
  });

  it('a request whose body is refused (bad JSON, wrong type, too large) is authenticated first: 401 without a valid key', async () => {
    const reconciliations = `/api/v1/companies/${rossi.companyId}/reconciliations`;
    const refused = [
      () => api.http.post(reconciliations).set('content-type', 'application/json').send('{"flow_id":'),
      () => api.http.post(reconciliations).set('content-type', 'text/plain').send('flow_id=x'),
      () => api.http.post(reconciliations).set('content-type', 'application/xml').send('<flow_id/>'),
      () =>
        api.http
          .post(reconciliations)
          .set('content-type', 'application/json')
          .send(JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) })),
      () => api.http.post(`/api/v1/companies/${rossi.companyId}/documents/invoice`).set('content-type', 'text/csv').send('a,b'),
    ];
    for (const send of refused) {
      const response = await send();
      expectError(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="flusso"');
      expectError(await send().set('Authorization', 'Bearer fls_dev_00000000000000000000000000000000'), 401, 'unauthorized', undefined, NOT_VALID);
    }
  });

  it('the OpenAPI document needs no key', async () => {
    const response = await api.http.get('/api/v1/openapi.json').expect(200);
    expect(response.body.info.version).toBe('1.2.0');
  });
});

describe('rate limiting (RATE_LIMIT_POINTS=3), shared by every process through Redis', () => {
  let api: TestApi;
  let other: NestFastifyApplication;
  let rossi: Tenant;
  let verdi: Tenant;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_POINTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    other = await sibling(api);
    rossi = await createTenant(api);
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
  });

  afterAll(async () => {
    await other.close();
    await api.close();
  });

  it('counts every authenticated call of a key across processes; past the limit 429 with retry-after', async () => {
    const first = await api.http.get('/api/v1/companies').set(rossi.auth).expect(200);
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual(['3', '2']);
    const second = await apiClient(other).get('/api/v1/companies').set(rossi.auth).expect(200);
    expect(second.headers['x-ratelimit-remaining']).toBe('1');
    // An error answer after authentication counts too.
    const third = await api.http.get(`/api/v1/companies/${rossi.companyId}/accounts/00000000-0000-4000-8000-000000000000`).set(rossi.auth).expect(404);
    expect(third.headers['x-ratelimit-remaining']).toBe('0');
    for (const http of [api.http, apiClient(other)]) {
      const refused = await http.get('/api/v1/companies').set(rossi.auth);
      expectError(refused, 429, 'too_many_requests', undefined, /^Rate limit of 3 requests per 60 seconds exceeded; retry in \d+ seconds\.$/);
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.body.errors[0].detail).toContain(`retry in ${retryAfter} seconds`);
    }
  });

  it('counts a request whose body is refused before it reaches its route, and says so in the headers', async () => {
    const bianchi = await createTenant(api, 'Bianchi Impianti S.r.l.');
    const post = () => api.http.post(`/api/v1/companies/${bianchi.companyId}/reconciliations`).set(bianchi.auth);
    const malformed = await post().set('content-type', 'application/json').send('{"flow_id":');
    expectError(malformed, 400, 'bad_request');
    expect([malformed.headers['x-ratelimit-limit'], malformed.headers['x-ratelimit-remaining']]).toEqual(['3', '2']);
    const wrongType = await post().set('content-type', 'text/plain').send('flow_id=x');
    expectError(wrongType, 415, 'unsupported_media_type');
    expect(wrongType.headers['x-ratelimit-remaining']).toBe('1');
    const xml = await post().set('content-type', 'application/xml').send('<flow_id/>');
    expectError(xml, 415, 'unsupported_media_type');
    expect(xml.headers['x-ratelimit-remaining']).toBe('0');
    const past = await post().set('content-type', 'application/json').send('{"flow_id":');
    expectError(past, 429, 'too_many_requests');
    expect(past.headers['retry-after']).toBeDefined();
  });

  it('limits each key separately, and does not count calls without a valid key', async () => {
    for (let i = 0; i < 5; i++) await api.http.get('/api/v1/companies').expect(401);
    const response = await api.http.get('/api/v1/companies').set(verdi.auth).expect(200);
    expect(response.headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('rate limiting with leases (RATE_LIMIT_POINTS=300: each process takes 3 requests at a time from Redis)', () => {
  let api: TestApi;
  let other: NestFastifyApplication;
  let rossi: Tenant;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_POINTS: '300', RATE_LIMIT_WINDOW_SECONDS: '60' });
    other = await sibling(api);
    rossi = await createTenant(api);
  });

  afterAll(async () => {
    await other.close();
    await api.close();
  });

  it('never lets two processes together exceed the limit, and leaves at most a lease per process unused', async () => {
    const servers = [api.http, apiClient(other)];
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 320; i++) {
      const response = await servers[i % 2].get('/api/v1/companies').set(rossi.auth);
      statuses.push(response.status);
      if (response.status === 200) remaining.push(Number(response.headers['x-ratelimit-remaining']));
    }
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeLessThanOrEqual(300);
    expect(served).toBeGreaterThanOrEqual(300 - 2 * 3);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses.slice(served + 2 * 3)).toEqual(statuses.slice(served + 2 * 3).map(() => 429));
    expect(Math.min(...remaining)).toBeGreaterThanOrEqual(0);
    expect(remaining[0]).toBeGreaterThanOrEqual(296);
  });
});

describe('production: HTTPS only', () => {
  let api: TestApi;
  let untrusting: NestFastifyApplication;
  let rossi: Tenant;

  beforeAll(async () => {
    api = await startApi({ FLUSSO_ENV: 'production', API_KEY_PEPPER: 'x', WEBHOOK_SECRET_KEY: 'y', INVOICE_LINK_SECRET: 'z', TRUST_PROXY: 'true' });
    untrusting = await sibling(api, { trustProxy: false });
    rossi = await createTenant(api);
  });

  afterAll(async () => {
    await untrusting.close();
    await api.close();
  });

  const HTTPS_DETAIL = 'This API is served over HTTPS only; call it with https://.';

  it('refuses plain HTTP with 403 https_required, before authentication, on every path', async () => {
    expect(rossi.key).toMatch(/^fls_prod_/);
    for (const path of ['/api/v1/companies', `/api/v1/companies/${rossi.companyId}/documents`, '/api/v1/nope', '/api/v1/openapi.json']) {
      const response = await api.http.get(path).set(rossi.auth);
      expectError(response, 403, 'https_required', undefined, HTTPS_DETAIL);
      expect(response.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
    }
    expectError(await api.http.get('/api/v1/companies').set(rossi.auth).set('X-Forwarded-Proto', 'http'), 403, 'https_required', undefined, HTTPS_DETAIL);
  });

  it('answers the health probes over plain HTTP: a load balancer sends them to the process itself', async () => {
    expect((await api.http.get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
    expect((await api.http.get('/readyz').expect(200)).body).toMatchObject({ status: 'ready' });
  });

  it('accepts X-Forwarded-Proto: https from a trusted proxy', async () => {
    const response = await api.http.get('/api/v1/companies').set(rossi.auth).set('X-Forwarded-Proto', 'https').expect(200);
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual([rossi.companyId]);
    expect(response.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
    expectError(await api.http.get('/api/v1/companies').set('X-Forwarded-Proto', 'https'), 401, 'unauthorized');
  });

  it('ignores X-Forwarded-Proto when the proxy is not trusted', async () => {
    expectError(
      await apiClient(untrusting).get('/api/v1/companies').set(rossi.auth).set('X-Forwarded-Proto', 'https'),
      403,
      'https_required',
      undefined,
      HTTPS_DETAIL,
    );
  });

  it('refuses a development key with a clear message', async () => {
    const development = await api.integrators.createKey(rossi.integratorId, 'development', 'dev');
    expectError(
      await api.http.get('/api/v1/companies').set('Authorization', `Bearer ${development.key}`).set('X-Forwarded-Proto', 'https'),
      401,
      'unauthorized',
      undefined,
      'This is a development API key, but this is the production environment; use a key starting with fls_prod_.',
    );
  });
});
