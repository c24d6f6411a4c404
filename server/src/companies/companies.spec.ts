import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Subscription } from './subscription.entity.js';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';

describe('GET /companies', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    await api.db.getRepository(Subscription).save([
      { companyId: rossi.companyId, status: 'TRIAL', createdAt: new Date('2026-01-01T00:00:00Z') },
      { companyId: rossi.companyId, status: 'ACTIVE', createdAt: new Date('2026-02-01T00:00:00Z') },
    ]);
  });

  afterAll(() => api.close());

  it('lists only the companies granted to the key, subscriptions null unless expanded', async () => {
    const response = await api.http.get('/api/v1/companies').set(rossi.auth).expect(200);
    expect(response.body).toEqual({
      data: [
        {
          id: rossi.companyId,
          name: 'Rossi Forniture S.r.l.',
          vat_number: rossi.vatNumber,
          country: 'IT',
          fiscal_regime: 'RF01',
          subscriptions: null,
        },
      ],
      page: { cursor: null, size: 25 },
    });
    expect(response.headers['x-ratelimit-limit']).toBe('600');
    expect(response.headers['strict-transport-security']).toContain('max-age=');
  });

  it('answers the same with a trailing slash', async () => {
    const response = await api.http.get('/api/v1/companies/').set(rossi.auth).expect(200);
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual([rossi.companyId]);
  });

  it('expands subscriptions, newest first', async () => {
    const response = await api.http.get('/api/v1/companies?expand=subscriptions').set(rossi.auth).expect(200);
    expect(response.body.data[0].subscriptions).toEqual([
      { status: 'ACTIVE', created_at: '2026-02-01T00:00:00.000Z' },
      { status: 'TRIAL', created_at: '2026-01-01T00:00:00.000Z' },
    ]);
  });

  it('refuses an unknown expansion with a pointer', async () => {
    const response = await api.http.get('/api/v1/companies?expand=owners').set(rossi.auth).expect(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'invalid_query_parameter', source: { pointer: '/query/expand' } });
  });

  it('answers 401 without a key and 403 on a company of another integrator', async () => {
    const missing = await api.http.get('/api/v1/companies').expect(401);
    expect(missing.body.errors[0].code).toBe('unauthorized');
    const other = await api.http.get(`/api/v1/companies/${verdi.companyId}/accounts`).set(rossi.auth).expect(403);
    expect(other.body.errors[0].code).toBe('forbidden');
  });
});
