import { randomInt } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import { Company } from '../companies/company.entity.js';
import { type AppConfig, loadConfig } from '../config/config.js';
import { Integrator } from '../integrators/integrator.entity.js';
import type { AuthInvalidation } from '../common/auth/auth-invalidation.js';
import { IntegratorsService } from '../integrators/integrators.service.js';
import { DEMO_COMPANY, DEMO_INTEGRATOR } from './catalogue.js';
import { todayUtc } from './calendar.js';
import { reconcileSeededTransfers, seedEInvoices, type SeededEInvoices } from './e-invoices.js';
import { type DataSetOptions, type DataSetSummary, seedCompanyData } from './data-set.js';
import { generatePartitaIva } from './italian-identifiers.js';
import { Random } from './random.js';

/** Who may use the demo company, and with which keys: shared by `seedDemo` and `createTenant`. */
interface KeyOptions {
  /** Environment and pepper of the key made; by default this process's configuration. */
  settings?: Pick<AppConfig, 'environment' | 'apiKeyPepper'>;
  /**
   * Announces the grant to running API processes. Only they can hold stale cached grants, so tests and benchmarks
   * that start their API afterwards leave it out.
   */
  invalidateAuth?: AuthInvalidation;
}

export interface DemoOptions extends DataSetOptions, KeyOptions {
  /** Delete the demo company with all its data and build it again (for example at another size). */
  reset?: boolean;
}

export interface DemoResult {
  integratorId: string;
  companyId: string;
  /** A new key named "demo": secrets are never stored, so each run makes one. */
  apiKey: string;
  keyId: string;
  accountIds: string[];
  /** False when the existing demo company was reused as it was. */
  seeded: boolean;
  counts: DataSetSummary['counts'] | null;
}

const DEMO_LOCK = 'flusso:demo';
const noInvalidation: AuthInvalidation = async () => undefined;

function integratorsService(dataSource: DataSource, options: KeyOptions): IntegratorsService {
  return new IntegratorsService(dataSource, options.settings ?? loadConfig(), options.invalidateAuth ?? noInvalidation);
}

async function demoIntegratorId(manager: EntityManager): Promise<string> {
  const existing = await manager.findOne(Integrator, { where: { name: DEMO_INTEGRATOR.name }, order: { createdAt: 'ASC' } });
  if (existing) return existing.id;
  return (await manager.save(Integrator, { name: DEMO_INTEGRATOR.name, contactEmail: DEMO_INTEGRATOR.contactEmail })).id;
}

async function accountIdsOf(dataSource: DataSource, companyId: string): Promise<string[]> {
  const accounts = await dataSource.getRepository(Account).find({ where: { companyId }, order: { createdAt: 'ASC', id: 'ASC' } });
  return accounts.map((account) => account.id);
}

/**
 * The demo company (found again by its VAT number), its integrator and a fresh key for it. Safe to run again: an
 * existing demo company is reused as it is, unless `reset` asks for a new one. Expects a migrated database.
 */
export async function seedDemo(dataSource: DataSource, options: DemoOptions = {}): Promise<DemoResult> {
  const found = await dataSource.transaction(async (manager) => {
    // Two demo runs at once must not build two demo companies.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [DEMO_LOCK]);
    const integratorId = await demoIntegratorId(manager);
    if (options.reset) await manager.delete(Company, { vatNumber: DEMO_COMPANY.vatNumber });
    const existing = await manager.findOne(Company, { where: { vatNumber: DEMO_COMPANY.vatNumber }, order: { createdAt: 'ASC' } });
    if (existing) return { integratorId, companyId: existing.id, summary: null, eInvoices: null };
    const company = await manager.save(Company, {
      name: DEMO_COMPANY.name,
      vatNumber: DEMO_COMPANY.vatNumber,
      country: DEMO_COMPANY.country,
      fiscalRegime: DEMO_COMPANY.fiscalRegime,
    });
    const summary = await seedCompanyData(manager, { id: company.id, name: company.name, vatNumber: DEMO_COMPANY.vatNumber }, options);
    const eInvoices: SeededEInvoices = await seedEInvoices(
      manager,
      { id: company.id, vatNumber: DEMO_COMPANY.vatNumber },
      summary.accountIds[0],
      options.today ?? todayUtc(),
    );
    return { integratorId, companyId: company.id, summary, eInvoices };
  });
  if (found.eInvoices) await reconcileSeededTransfers(dataSource, found.companyId, found.eInvoices);

  const integrators = integratorsService(dataSource, options);
  await integrators.grant(found.integratorId, found.companyId);
  const key = await integrators.createKey(found.integratorId, undefined, 'demo');
  return {
    integratorId: found.integratorId,
    companyId: found.companyId,
    apiKey: key.key,
    keyId: key.id,
    accountIds: found.summary?.accountIds ?? (await accountIdsOf(dataSource, found.companyId)),
    seeded: found.summary !== null,
    counts: found.summary?.counts ?? null,
  };
}

export interface TenantOptions extends KeyOptions {
  /** Company name; by default a made-up one. */
  name?: string;
  /** Fill the company with a data set of this shape; by default it stays empty. */
  data?: DataSetOptions;
}

export interface Tenant {
  integratorId: string;
  companyId: string;
  vatNumber: string;
  apiKey: string;
  keyId: string;
  accountIds: string[];
}

/** A new integrator with a key, granted one new company: what a test needs to call the API as somebody. */
export async function createTenant(dataSource: DataSource, options: TenantOptions = {}): Promise<Tenant> {
  const integrators = integratorsService(dataSource, options);
  const random = new Random(options.data?.seed ?? randomInt(2 ** 31));
  const name = options.name ?? `Azienda di Prova ${random.digits(4)} S.r.l.`;
  const integrator = await integrators.createIntegrator(`${name} integrator`);
  const company = await integrators.createCompany({ name, vat_number: generatePartitaIva(random), country: 'IT', fiscal_regime: 'RF01' });
  await integrators.grant(integrator.id, company.id);
  const key = await integrators.createKey(integrator.id, undefined, 'test');
  const data = options.data;
  const summary = data
    ? await dataSource.transaction((manager) => seedCompanyData(manager, { id: company.id, name, vatNumber: company.vat_number! }, data))
    : null;
  return {
    integratorId: integrator.id,
    companyId: company.id,
    vatNumber: company.vat_number!,
    apiKey: key.key,
    keyId: key.id,
    accountIds: summary?.accountIds ?? [],
  };
}
