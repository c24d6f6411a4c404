import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTenant, startApi, type TestApi, type Tenant } from '../../../test/api.js';
import { expectError } from '../../../test/expect.js';
import { generateKey } from './api-key.js';

/**
 * Holds an exclusive lock on api_keys from a connection of the test's own: any key lookup in the database then waits
 * (and gives up with 503 after DB_LOCK_TIMEOUT_MS), so an answer that comes back at once, 401 or 429, did not ask it.
 */
async function lockApiKeys(databaseUrl: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE');
  return {
    release: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

describe('failed authentication', () => {
  let api: TestApi;
  let rossi: Tenant;
  let held: { release: () => Promise<void> } | undefined;

  const LIMIT = 5;
  const companies = (authorization: string, address: string) =>
    api.http.get('/api/v1/companies').set('Authorization', `Bearer ${authorization}`).set('X-Forwarded-For', address);
  /** Rossi's key with another secret: the same lookup prefix, a wrong rest. */
  const wrongSecret = (i: number) => rossi.key.slice(0, -4) + String(1000 + i).slice(-4);

  beforeAll(async () => {
    api = await startApi({ AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_SECONDS: '60', DB_LOCK_TIMEOUT_MS: '3000' });
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
  });

  afterEach(async () => {
    await held?.release();
    held = undefined;
  });

  afterAll(() => api.close());

  it('answers wrong secrets for a known key prefix without the database, and 429 with Retry-After past the limit', async () => {
    await companies(rossi.key, '203.0.113.1').expect(200);
    held = await lockApiKeys(api.config.databaseUrl);
    const statuses: number[] = [];
    // Each from another address: only the prefix's count can stop them.
    for (let i = 0; i < 40; i++) {
      const response = await companies(wrongSecret(i), `203.0.113.${10 + i}`);
      statuses.push(response.status);
      if (response.status === 429) {
        expectError(response, 429, 'too_many_requests');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
      } else {
        expectError(response, 401, 'unauthorized');
      }
    }
    // A lookup in the database would have waited for the lock and answered 503 after DB_LOCK_TIMEOUT_MS.
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(40 - LIMIT).fill(429)]);
    // The real key still works: it is verified from the cache, not refused with its prefix.
    await companies(rossi.key, '203.0.113.200').expect(200);
  });

  it('carries the rate-limit headers without a valid key: the failed authentications its address may still make', async () => {
    const address = '192.0.2.44';
    const limitHeaders = (response: { headers: Record<string, string> }) => [response.headers['x-ratelimit-limit'], response.headers['x-ratelimit-remaining']];
    // No key, or no usable one: nothing is counted.
    const missing = await api.http.get('/api/v1/companies').set('X-Forwarded-For', address);
    expectError(missing, 401, 'unauthorized');
    expect(limitHeaders(missing)).toEqual([String(LIMIT), String(LIMIT)]);
    const malformed = await api.http.get('/api/v1/companies').set('Authorization', 'Basic abc').set('X-Forwarded-For', address);
    expect(limitHeaders(malformed)).toEqual([String(LIMIT), String(LIMIT)]);
    // A wrong key is counted, down to 429.
    for (let i = 1; i <= LIMIT; i++) {
      const response = await companies(generateKey('development').key, address);
      expectError(response, 401, 'unauthorized');
      expect(limitHeaders(response)).toEqual([String(LIMIT), String(LIMIT - i)]);
    }
    const refused = await companies(generateKey('development').key, address);
    expectError(refused, 429, 'too_many_requests');
    expect(limitHeaders(refused)).toEqual([String(LIMIT), '0']);
    expect(limitHeaders(await api.http.get('/api/v1/companies').set('X-Forwarded-For', address))).toEqual([String(LIMIT), '0']);
  });

  it('counts failures per client address, across key prefixes, and refuses past the limit without the database', async () => {
    const address = '198.51.100.7';
    for (let i = 0; i < LIMIT; i++) expectError(await companies(generateKey('development').key, address), 401, 'unauthorized');
    held = await lockApiKeys(api.config.databaseUrl);
    for (let i = 0; i < 20; i++) {
      const response = await companies(generateKey('development').key, address);
      expectError(response, 429, 'too_many_requests');
      expect(response.headers['retry-after']).toBeDefined();
    }
    await held.release();
    held = undefined;
    // Another address is not held back by this one.
    const verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    await companies(verdi.key, '198.51.100.8').expect(200);
  });
});
