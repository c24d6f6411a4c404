import 'reflect-metadata';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { createApi } from '../src/app.js';
import type { Clock } from '../src/common/clock/clock.port.js';
import { loadConfig, type AppConfig } from '../src/config/config.js';
import { createTenant as createDemoTenant } from '../src/demo/seed-demo.js';
import { redisAuthInvalidation } from '../src/common/auth/auth-invalidation.js';
import { AuthService } from '../src/common/auth/auth.service.js';
import { createRedis } from '../src/common/redis/redis-client.js';
import { IntegratorsService } from '../src/integrators/integrators.service.js';
import { createTestDatabase } from './database.js';
import { assertDocumented } from './documented-responses.js';

export interface TestApi {
  app: NestFastifyApplication;
  http: ReturnType<typeof request>;
  db: DataSource;
  config: AppConfig;
  integrators: IntegratorsService;
  /** The API's log lines, parsed, when started with `captureLogs` (oldest first). */
  logs: Array<Record<string, unknown>>;
  close: () => Promise<void>;
}

/** A stream that keeps each JSON log line written to it, parsed, in `lines`. */
export function logCapture(): { stream: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { stream, lines };
}

const HTTP_METHODS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options']);

/**
 * The supertest client of an API whose every answer is checked against the published OpenAPI document (status declared
 * for the operation, body matching its schema, required headers present): a test fails on an undocumented answer, so
 * the document cannot drift from what the API sends.
 */
export function apiClient(app: NestFastifyApplication): ReturnType<typeof request> {
  const client = request(app.getHttpServer());
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !HTTP_METHODS.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => value.apply(target, args).expect(assertDocumented);
    },
  });
}

/**
 * The real API on a fresh database: Nest on Fastify, PostgreSQL and Redis, exercised over HTTP with supertest.
 * `env` overrides configuration variables the way an operator would; with `captureLogs` the log lines (at LOG_LEVEL,
 * silent unless `env` says otherwise) are kept in `logs`. With `pooler` (server/test/pgbouncer.ts) DATABASE_URL goes
 * through it and DATABASE_DIRECT_URL is the database itself. With `clock` the API reads time there (a rolled key's end,
 * when keys were last used): tests move it instead of sleeping.
 */
export async function startApi(
  env: Record<string, string> = {},
  options: { captureLogs?: boolean; pooler?: { url: (databaseUrl: string) => string }; clock?: Clock } = {},
): Promise<TestApi> {
  const database = await createTestDatabase();
  const urls = options.pooler ? { DATABASE_URL: options.pooler.url(database.url), DATABASE_DIRECT_URL: database.url } : { DATABASE_URL: database.url };
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', ...env, ...urls });
  const capture = options.captureLogs ? logCapture() : undefined;
  const app = await createApi(config, { logDestination: capture?.stream, clock: options.clock });
  await app.getHttpAdapter().getInstance().ready();
  const db = app.get<DataSource>(getDataSourceToken());
  const redis = createRedis(config);
  // The announcement reaches the API's subscriber in its own time; a test's next request must find the grant or the
  // revocation, so the invalidation returns once this API has emptied its cache (or after 2 s: no subscription).
  const auth = app.get(AuthService);
  const invalidate = redisAuthInvalidation(redis, config.redisPrefix);
  const integrators = new IntegratorsService(db, config, async () => {
    const seen = auth.invalidations;
    await invalidate();
    if (config.authCacheSeconds === 0) return;
    for (const deadline = Date.now() + 2000; auth.invalidations === seen && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 5));
  });
  return {
    app,
    http: apiClient(app),
    db,
    config,
    integrators,
    logs: capture?.lines ?? [],
    close: async () => {
      await app.close();
      redis.disconnect();
      await database.drop();
    },
  };
}

export interface Tenant {
  integratorId: string;
  companyId: string;
  vatNumber: string;
  key: string;
  auth: { Authorization: string };
}

/** An integrator with a key, granted one new (empty) company: the demo's tenant, seen from HTTP. */
export async function createTenant(api: TestApi, name = 'Rossi Forniture S.r.l.'): Promise<Tenant> {
  const tenant = await createDemoTenant(api.db, { name, settings: api.config });
  return {
    integratorId: tenant.integratorId,
    companyId: tenant.companyId,
    vatNumber: tenant.vatNumber,
    key: tenant.apiKey,
    auth: { Authorization: `Bearer ${tenant.apiKey}` },
  };
}
