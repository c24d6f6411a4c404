import 'reflect-metadata';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { hashKey, parseKey } from '../common/auth/api-key.js';
import { authInvalidationChannel, redisAuthInvalidation } from '../common/auth/auth-invalidation.js';
import { createDataSource } from '../entities.js';
import { DEFAULTS } from '../config/config.js';
import { createTestDatabase } from '../../test/database.js';
import { ApiKey } from '../common/auth/api-key.entity.js';
import { IntegratorsError, IntegratorsService } from './integrators.service.js';

const settings = { environment: 'development' as const, apiKeyPepper: 'test-pepper', redisPrefix: process.env.REDIS_PREFIX ?? 'flusso' };

describe('IntegratorsService', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let redis: Redis;
  let subscriber: Redis;
  const invalidations: string[] = [];
  let service: IntegratorsService;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource(database.url).initialize();
    const redisUrl = process.env.REDIS_URL ?? DEFAULTS.REDIS_URL;
    redis = new Redis(redisUrl);
    subscriber = new Redis(redisUrl);
    subscriber.on('message', (channel: string) => invalidations.push(channel));
    await subscriber.subscribe(authInvalidationChannel(settings.redisPrefix));
    service = new IntegratorsService(db, settings, redisAuthInvalidation(redis, settings.redisPrefix));
  });

  afterAll(async () => {
    await subscriber.quit();
    await redis.quit();
    await db.destroy();
    await database.drop();
  });

  /** Waits for the published invalidations to come back through the subscriber. */
  async function invalidationsAfter(action: () => Promise<unknown>): Promise<number> {
    const before = invalidations.length;
    await action();
    for (let i = 0; i < 50 && invalidations.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    return invalidations.length - before;
  }

  it('creates a key whose secret is shown once and stored only as a peppered hash', async () => {
    const integrator = await service.createIntegrator('Gestionale Rossi', 'dev@rossi.example');
    const created = await service.createKey(integrator.id, 'development', 'ci');

    expect(created.key).toMatch(/^fls_dev_[A-Za-z0-9]{32}$/);
    expect(created.lookup).toBe(parseKey(created.key)?.lookup);
    expect(created).toMatchObject({ integrator_id: integrator.id, name: 'ci', environment: 'development', revoked_at: null });

    const stored = await db.getRepository(ApiKey).findOneByOrFail({ id: created.id });
    expect(stored.secretHash).toBe(hashKey(created.key, settings.apiKeyPepper));
    expect(JSON.stringify(stored)).not.toContain(created.key);
  });

  it('gives a key * unless told, stores permissions in their normal form and refuses unknown ones', async () => {
    const integrator = await service.createIntegrator('Restricted');
    expect((await service.createKey(integrator.id)).permissions).toEqual(['*']);
    const restricted = await service.createKey(integrator.id, 'development', 'ro', 'reconciliations:write,documents:read,documents:write');
    expect(restricted.permissions).toEqual(['documents:write', 'reconciliations:write']);
    expect((await db.getRepository(ApiKey).findOneByOrFail({ id: restricted.id })).permissions).toEqual(['documents:write', 'reconciliations:write']);
    await expect(service.createKey(integrator.id, 'development', 'bad', ['documents:admin'])).rejects.toThrow(IntegratorsError);
    await expect(service.createKey(integrator.id, 'development', 'bad', ['documents:admin'])).rejects.toThrow(
      /Unknown permission "documents:admin"; use \*, accounts:read/,
    );
  });

  it('defaults to the configured environment and makes production keys on request', async () => {
    const integrator = await service.createIntegrator('Default env');
    expect((await service.createKey(integrator.id)).key).toMatch(/^fls_dev_/);
    expect((await service.createKey(integrator.id, 'production', 'live')).key).toMatch(/^fls_prod_[A-Za-z0-9]{32}$/);
  });

  it('lists keys without their secrets, per integrator or all', async () => {
    const integrator = await service.createIntegrator('Lister');
    const first = await service.createKey(integrator.id, 'development', 'one');
    const second = await service.createKey(integrator.id, 'production', 'two');

    const listed = await service.listKeys(integrator.id);
    expect(listed.map((key) => key.id)).toEqual([first.id, second.id]);
    expect(Object.keys(listed[0]).sort()).toEqual([
      'created_at',
      'environment',
      'expires_at',
      'id',
      'integrator_id',
      'last_used_at',
      'lookup',
      'name',
      'permissions',
      'revoked_at',
    ]);
    expect(JSON.stringify(listed)).not.toContain(first.key);
    expect((await service.listKeys()).map((key) => key.id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it('revokes a key, tells API processes, and keeps the first revocation time', async () => {
    const integrator = await service.createIntegrator('Revoker');
    const created = await service.createKey(integrator.id);

    let revoked!: Awaited<ReturnType<IntegratorsService['revokeKey']>>;
    expect(await invalidationsAfter(async () => (revoked = await service.revokeKey(created.id)))).toBeGreaterThan(0);
    expect(revoked.revoked_at).not.toBeNull();

    const again = await service.revokeKey(created.id);
    expect(again.revoked_at).toBe(revoked.revoked_at);
    expect((await service.listKeys(integrator.id))[0].revoked_at).toBe(revoked.revoked_at);
  });

  it('creates companies with normalised, checked VAT numbers', async () => {
    const company = await service.createCompany({ name: ' Bar Sport S.n.c. ', vat_number: '012 3456 7897', country: 'it', fiscal_regime: 'rf01' });
    expect(company).toMatchObject({ name: 'Bar Sport S.n.c.', vat_number: 'IT01234567897', country: 'IT', fiscal_regime: 'RF01' });

    await expect(service.createCompany({ name: 'X', vat_number: '01234567890', country: 'IT', fiscal_regime: 'RF01' })).rejects.toThrow(
      /not a valid partita IVA/,
    );
    await expect(service.createCompany({ name: 'X', country: 'IT', fiscal_regime: 'RF21' })).rejects.toThrow(/RF01 to RF20/);
    await expect(service.createCompany({ name: 'X', country: 'Italy', fiscal_regime: 'RF01' })).rejects.toThrow(/alpha-2/);
  });

  it("records a sole trader's codice fiscale, checked, on creation and later, and clears it", async () => {
    const company = await service.createCompany({
      name: 'Verdi Giuseppe',
      vat_number: '01234567897',
      tax_number: 'vrdgpp75c12f205k',
      country: 'IT',
      fiscal_regime: 'RF19',
    });
    expect(company).toMatchObject({ vat_number: 'IT01234567897', tax_number: 'VRDGPP75C12F205K' });
    // The check letter of VRDGPP75C12F205 is K, not J.
    await expect(service.createCompany({ name: 'X', tax_number: 'VRDGPP75C12F205J', country: 'IT', fiscal_regime: 'RF01' })).rejects.toThrow(
      /not a valid codice fiscale/,
    );
    expect(await service.setCompanyTaxNumber(company.id, 'BNCLCU82L41F205C')).toMatchObject({ tax_number: 'BNCLCU82L41F205C' });
    expect(await service.setCompanyTaxNumber(company.id, null)).toMatchObject({ tax_number: null });
    await expect(service.setCompanyTaxNumber('00000000-0000-4000-8000-000000000000', null)).rejects.toThrow(/No company/);
  });

  it('grants an integrator a company once, and announces it', async () => {
    const integrator = await service.createIntegrator('Granted');
    const company = await service.createCompany({ name: 'Osteria', country: 'IT', fiscal_regime: 'RF01' });

    let grant!: Awaited<ReturnType<IntegratorsService['grant']>>;
    expect(await invalidationsAfter(async () => (grant = await service.grant(integrator.id, company.id)))).toBeGreaterThan(0);
    expect(grant).toMatchObject({ integrator_id: integrator.id, company_id: company.id });
    expect((await service.grant(integrator.id, company.id)).created_at).toBe(grant.created_at);
  });

  it('names what is unknown or malformed', async () => {
    const integrator = await service.createIntegrator('Errors');
    await expect(service.createKey('00000000-0000-4000-8000-000000000000')).rejects.toThrow(IntegratorsError);
    await expect(service.createKey(integrator.id, 'staging' as never)).rejects.toThrow(/development, production/);
    await expect(service.revokeKey('nope')).rejects.toThrow(/not a uuid/);
    await expect(service.grant(integrator.id, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(/No company/);
  });
});
