import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { apiClient, createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { createApi } from '../app.js';
import { ApiKey } from '../common/auth/api-key.entity.js';
import { KeyUsage } from '../common/auth/key-usage.js';
import { ManualClock } from '../common/clock/drivers/manual.driver.js';

const NOT_VALID = 'The API key is not valid, has been revoked or has expired.';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('API keys managed by API', () => {
  const clock = new ManualClock();
  let api: TestApi;
  /** A second API process on the same database, Redis and clock, as behind a load balancer. */
  let sibling: NestFastifyApplication;
  let rossi: Tenant;
  let verdi: Tenant;
  const base = '/api/v1/api-keys';

  beforeAll(async () => {
    api = await startApi({}, { clock });
    sibling = await createApi(api.config, { clock });
    await sibling.getHttpAdapter().getInstance().ready();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
  });

  afterAll(async () => {
    await sibling.close();
    await api.close();
  });

  /** Whether a key is accepted by a process: the company list needs any valid key. */
  const works = async (key: string, app: NestFastifyApplication = api.app) => (await apiClient(app).get('/api/v1/companies').set(bearer(key))).status;

  const create = (key: string, body: unknown) =>
    api.http
      .post(base)
      .set(bearer(key))
      .send(body as object);

  it('lists the integrator’s keys with their prefix and permissions, never a secret', async () => {
    const listed = await api.http.get(base).set(rossi.auth);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: expect.any(String),
        name: expect.any(String),
        prefix: rossi.key.slice(0, 16),
        permissions: ['*'],
        status: 'ACTIVE',
        created_at: expect.any(String),
        // This very request may already be recorded (last-used test below).
        last_used_at: listed.body.data[0].last_used_at,
        expires_at: null,
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(rossi.key.slice(16));
    const one = await api.http.get(`${base}/${listed.body.data[0].id}`).set(rossi.auth);
    expect(one.status).toBe(200);
    expect({ ...one.body, last_used_at: null }).toEqual({ ...listed.body.data[0], last_used_at: null });
  });

  it('creates a restricted key, shown once, that may do only what it was given', async () => {
    const created = await create(rossi.key, { name: 'reader', permissions: ['documents:read', 'transactions:write', 'documents:read'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'reader',
      prefix: created.body.secret.slice(0, 16),
      permissions: ['documents:read', 'transactions:write'],
      status: 'ACTIVE',
      created_at: expect.any(String),
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      secret: expect.stringMatching(/^fls_dev_[A-Za-z0-9]{32}$/),
    });
    const stored = await api.db.getRepository(ApiKey).findOneByOrFail({ id: created.body.id });
    expect(stored.secretHash).not.toContain(created.body.secret);

    const key = bearer(created.body.secret);
    expect((await api.http.get(`/api/v1/companies/${rossi.companyId}/documents`).set(key)).status).toBe(200);
    expect((await api.http.get(`/api/v1/companies/${rossi.companyId}/transactions`).set(key)).status).toBe(200);
    const refused = await api.http.get(base).set(key);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({ code: 'insufficient_permission', required_permission: 'api_keys:read' });

    const read = await api.http.get(`${base}/${created.body.id}`).set(rossi.auth);
    expect(read.body).toEqual({ ...created.body, secret: undefined, last_used_at: expect.any(String) });
    expect(ids(await api.http.get(base).set(rossi.auth))).toContain(created.body.id);
  });

  it('a key never gives more than it has: creating, rolling or revoking beyond its permissions is 403 naming what it lacks', async () => {
    const manager = (await create(rossi.key, { name: 'key manager', permissions: ['api_keys:write', 'documents:read'] })).body;
    const [full] = (await api.http.get(base).set(rossi.auth)).body.data;

    const cases = [
      [() => create(manager.secret, { name: 'writer', permissions: ['documents:write'] }), 'documents:write'],
      [() => create(manager.secret, { name: 'all', permissions: ['*'] }), '*'],
      [() => create(manager.secret, { name: 'more', permissions: ['documents:read', 'webhooks:read'] }), 'webhooks:read'],
      [() => api.http.post(`${base}/${full.id}/roll`).set(bearer(manager.secret)).send({ expires_in: 0 }), '*'],
      [() => api.http.delete(`${base}/${full.id}`).set(bearer(manager.secret)), '*'],
    ] as const;
    for (const [call, missing] of cases) {
      const refused = await call();
      expect([refused.status, refused.body.errors[0].code, refused.body.errors[0].required_permission]).toEqual([403, 'insufficient_permission', missing]);
      expect(refused.body.errors[0].detail).toContain(missing);
    }
    // The full key is untouched, and nothing was created.
    expect(await works(rossi.key)).toBe(200);
    expect((await api.http.get(base).set(rossi.auth)).body.data.map((k: { name: string }) => k.name)).not.toContain('writer');

    // Within its own permissions it may create (write implies read), and it may roll and revoke itself.
    const child = await create(manager.secret, { name: 'child', permissions: ['documents:read', 'api_keys:read'] });
    expect(child.status).toBe(201);
    expect(child.body.permissions).toEqual(['documents:read', 'api_keys:read']);
    const rolled = await api.http.post(`${base}/${manager.id}/roll`).set(bearer(manager.secret)).send({ expires_in: 0 });
    expect(rolled.status).toBe(200);
    expect(await works(manager.secret)).toBe(401);
    const revoked = await api.http.delete(`${base}/${rolled.body.id}`).set(bearer(rolled.body.secret));
    expect([revoked.status, revoked.body.status]).toEqual([200, 'REVOKED']);
    expect(await works(rolled.body.secret)).toBe(401);
  });

  it('rolls a key: the new one works at once, the old one for the chosen overlap, in every process, then is refused', async () => {
    const old = (await create(rossi.key, { name: 'billing', permissions: ['documents:write'] })).body;
    // Both processes have verified and cached the key.
    expect([await works(old.secret), await works(old.secret, sibling)]).toEqual([200, 200]);

    const rolled = await api.http.post(`${base}/${old.id}/roll`).set(rossi.auth).send({ expires_in: 3600 });
    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({ name: 'billing', permissions: ['documents:write'], status: 'ACTIVE', expires_at: null });
    expect(rolled.body.id).not.toBe(old.id);
    expect(rolled.body.secret).not.toBe(old.secret);
    const before = (await api.http.get(`${base}/${old.id}`).set(rossi.auth)).body;
    expect(before.status).toBe('ACTIVE');
    expect(Date.parse(before.expires_at) - clock.now().getTime()).toBeGreaterThan(3590_000);
    expect(Date.parse(before.expires_at) - clock.now().getTime()).toBeLessThanOrEqual(3600_000);

    for (const app of [api.app, sibling]) expect([await works(old.secret, app), await works(rolled.body.secret, app)]).toEqual([200, 200]);
    // Rolling again cannot lengthen the overlap.
    const again = await api.http
      .post(`${base}/${old.id}/roll`)
      .set(rossi.auth)
      .send({ expires_in: 7 * 24 * 3600 });
    expect(again.status).toBe(200);
    expect((await api.http.get(`${base}/${old.id}`).set(rossi.auth)).body.expires_at).toBe(before.expires_at);

    await clock.advance(3601_000);
    // No announcement: each process reads the end from what it cached.
    const refused = await apiClient(sibling).get('/api/v1/companies').set(bearer(old.secret));
    expectError(refused, 401, 'unauthorized', undefined, NOT_VALID);
    expect(await works(old.secret)).toBe(401);
    for (const app of [api.app, sibling]) expect(await works(rolled.body.secret, app)).toBe(200);
    expect((await api.http.get(`${base}/${old.id}`).set(rossi.auth)).body.status).toBe('EXPIRED');
    expectError(await api.http.post(`${base}/${old.id}/roll`).set(rossi.auth).send({ expires_in: 0 }), 422, 'invalid_state');
  });

  it('rolling with expires_in 0 stops the old key at once in every process', async () => {
    const old = (await create(rossi.key, { name: 'leaked', permissions: ['documents:read'] })).body;
    expect([await works(old.secret), await works(old.secret, sibling)]).toEqual([200, 200]);
    const rolled = await api.http.post(`${base}/${old.id}/roll`).set(rossi.auth).send({ expires_in: 0 });
    expect(rolled.status).toBe(200);
    expect([await works(old.secret), await works(old.secret, sibling)]).toEqual([401, 401]);
    expect([await works(rolled.body.secret), await works(rolled.body.secret, sibling)]).toEqual([200, 200]);
  });

  it('a key whose end is set in the database is refused once the caches are told', async () => {
    const key = (await create(rossi.key, { name: 'ended', permissions: ['documents:read'] })).body;
    expect(await works(key.secret)).toBe(200);
    await api.db.getRepository(ApiKey).update({ id: key.id }, { expiresAt: new Date(Date.now() - 1000) });
    // Any invalidation makes the processes read keys again (here: revoking another key).
    const other = (await create(rossi.key, { name: 'other', permissions: ['documents:read'] })).body;
    await api.http.delete(`${base}/${other.id}`).set(rossi.auth).expect(200);
    expect([await works(key.secret), await works(key.secret, sibling)]).toEqual([401, 401]);
  });

  it('revokes a key at once in every API process sharing Redis; revoking again changes nothing', async () => {
    const key = (await create(rossi.key, { name: 'to revoke', permissions: ['documents:read'] })).body;
    expect([await works(key.secret), await works(key.secret, sibling)]).toEqual([200, 200]);
    // Both processes' last_used_at written (off the request path) before the two answers are compared.
    await Promise.all([api.app.get(KeyUsage).flush(), sibling.get(KeyUsage).flush()]);
    const revoked = await api.http.delete(`${base}/${key.id}`).set(rossi.auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'REVOKED', revoked_at: expect.any(String) });
    expectError(await apiClient(sibling).get('/api/v1/companies').set(bearer(key.secret)), 401, 'unauthorized', undefined, NOT_VALID);
    expect(await works(key.secret)).toBe(401);
    const again = await api.http.delete(`${base}/${key.id}`).set(rossi.auth);
    expect(again.body).toEqual(revoked.body);
    expectError(await api.http.post(`${base}/${key.id}/roll`).set(rossi.auth).send({ expires_in: 60 }), 422, 'invalid_state');
  });

  it('another integrator’s keys are not found', async () => {
    const theirs = (await api.http.get(base).set(verdi.auth)).body.data[0].id;
    expect(ids(await api.http.get(base).set(rossi.auth))).not.toContain(theirs);
    expectError(await api.http.get(`${base}/${theirs}`).set(rossi.auth), 404, 'not_found');
    expectError(await api.http.post(`${base}/${theirs}/roll`).set(rossi.auth).send({ expires_in: 0 }), 404, 'not_found');
    expectError(await api.http.delete(`${base}/${theirs}`).set(rossi.auth), 404, 'not_found');
    expect(await works(verdi.key)).toBe(200);
    expectError(await api.http.get(`${base}/not-a-uuid`).set(rossi.auth), 404, 'not_found');
  });

  it('refuses bad input with 400 or 422, never a 500', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, '/name'],
      [{ name: 'x' }, 400, '/permissions'],
      [{ name: 'x', permissions: 'documents:read' }, 400, '/permissions'],
      [{ name: 'x', permissions: [1] }, 400, '/permissions'],
      [{ name: 'x', permissions: [] }, 422, '/permissions'],
      [{ name: 'x', permissions: ['documents:delete'] }, 422, '/permissions'],
      [{ name: '  ', permissions: ['documents:read'] }, 422, '/name'],
      [{ name: 'x'.repeat(101), permissions: ['documents:read'] }, 422, '/name'],
      [{ name: 'x', permissions: ['documents:read'], extra: 1 }, 400, '/extra'],
    ];
    for (const [body, status, pointer] of cases) {
      const refused = await create(rossi.key, body);
      expect([JSON.stringify(body), refused.status, refused.body.errors[0].source?.pointer]).toEqual([JSON.stringify(body), status, pointer]);
    }
    const [key] = (await api.http.get(base).set(rossi.auth)).body.data;
    const rolls: Array<[unknown, number]> = [
      [{}, 400],
      [{ expires_in: '60' }, 400],
      [{ expires_in: 1.5 }, 400],
      [{ expires_in: -1 }, 422],
      [{ expires_in: 7 * 24 * 3600 + 1 }, 422],
    ];
    for (const [body, status] of rolls) {
      const refused = await api.http
        .post(`${base}/${key.id}/roll`)
        .set(rossi.auth)
        .send(body as object);
      expect([JSON.stringify(body), refused.status]).toEqual([JSON.stringify(body), status]);
    }
    expect((await api.http.post(`${base}/${key.id}/roll`).set(rossi.auth)).status).toBe(400);
    expect((await api.http.get(`${base}?page_size=0`).set(rossi.auth)).status).toBe(400);
    expect(await works(rossi.key)).toBe(200);
  });

  it('records when a key was last used, at most once a minute per process, off the request path', async () => {
    const key = (await create(rossi.key, { name: 'usage', permissions: ['documents:read'] })).body;
    const usage = api.app.get(KeyUsage);
    const lastUsed = async () => (await api.db.getRepository(ApiKey).findOneByOrFail({ id: key.id })).lastUsedAt?.getTime() ?? null;
    expect(await lastUsed()).toBeNull();

    expect(await works(key.secret)).toBe(200);
    await usage.flush();
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect(Math.abs(first! - clock.now().getTime())).toBeLessThan(5000);
    const shown = (await api.http.get(`${base}/${key.id}`).set(rossi.auth)).body.last_used_at;
    expect(Date.parse(shown)).toBe(first);

    // Within the minute: nothing more is written.
    await clock.advance(30_000);
    expect(await works(key.secret)).toBe(200);
    await usage.flush();
    expect(await lastUsed()).toBe(first);

    await clock.advance(31_000);
    expect(await works(key.secret)).toBe(200);
    await usage.flush();
    expect((await lastUsed())! - first!).toBeGreaterThanOrEqual(61_000);
  });
});
