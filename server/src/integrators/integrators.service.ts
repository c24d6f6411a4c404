import type { DataSource } from 'typeorm';
import type { ApiKey } from '../common/auth/api-key.entity.js';
import { ApiKeysRepository } from '../common/auth/api-keys.repository.js';
import type { AuthInvalidation } from '../common/auth/auth-invalidation.js';
import { normalizePermissions, type Permission, PermissionsError } from '../common/auth/permissions.js';
import { CompaniesRepository } from '../companies/companies.repository.js';
import type { Company } from '../companies/company.entity.js';
import type { AppConfig, Environment } from '../config/config.js';
import { isValidCodiceFiscale, isValidPartitaIva, isValidVatNumber, normalizeVatNumber } from '../common/validation/italian-identifiers.js';
import { IntegratorsRepository } from './integrators.repository.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { SystemClock } from '../common/clock/drivers/system.driver.js';
import { requireUuid } from '../common/validation/uuid.js';

/**
 * The operator's side of tenancy: integrators, their API keys, companies and the grants between them. Built by hand
 * from a DataSource (its repositories with it) so the CLI, the demo seeder, benchmarks and tests use it without
 * booting Nest.
 */

/** A request the operator can fix (unknown id, invalid value); its message is meant to be shown as is. */
export class IntegratorsError extends Error {}

export interface IntegratorView {
  id: string;
  name: string;
  contact_email: string | null;
  created_at: string;
}

export interface KeyView {
  id: string;
  integrator_id: string;
  name: string;
  /** The public start of the key, enough to recognise it; never the secret. */
  lookup: string;
  environment: Environment;
  /** What the key may do: `*`, or read/write per resource family (write implies read). */
  permissions: Permission[];
  created_at: string;
  last_used_at: string | null;
  /** When a rolled key stops working; null for one never rolled. */
  expires_at: string | null;
  revoked_at: string | null;
}

export interface CreatedKey extends KeyView {
  /** The whole secret key. It is not stored, so this is the only time anyone sees it. */
  key: string;
}

export interface CompanyInput {
  name: string;
  vat_number?: string | null;
  /** Its codice fiscale when that is not its partita IVA (a sole trader's 16 characters). */
  tax_number?: string | null;
  country: string;
  fiscal_regime: string;
}

export interface CompanyView {
  id: string;
  name: string;
  vat_number: string | null;
  tax_number: string | null;
  country: string;
  fiscal_regime: string;
  created_at: string;
}

export interface GrantView {
  integrator_id: string;
  company_id: string;
  created_at: string;
}

const ENVIRONMENTS: readonly Environment[] = ['development', 'production'];
const FISCAL_REGIME = /^RF(0[1-9]|1[0-9]|20)$/;

function keyView(key: ApiKey): KeyView {
  return {
    id: key.id,
    integrator_id: key.integratorId,
    name: key.name,
    lookup: key.lookup,
    environment: key.environment,
    permissions: key.permissions as Permission[],
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

function companyView(company: Company): CompanyView {
  return {
    id: company.id,
    name: company.name,
    vat_number: company.vatNumber,
    tax_number: company.taxNumber,
    country: company.country,
    fiscal_regime: company.fiscalRegime,
    created_at: company.createdAt.toISOString(),
  };
}

const notUuid = (what: string) => (value: string) => new IntegratorsError(`${what} "${value}" is not a uuid.`);

/** A VAT number in the stored form: country prefix, no spaces; an Italian one must carry a valid check digit. */
export function normalizeCompanyVatNumber(raw: string, country: string): string {
  const vatNumber = normalizeVatNumber(raw, country);
  if (!vatNumber) throw new IntegratorsError(`"${raw}" is not a VAT number.`);
  if (!isValidVatNumber(vatNumber)) throw new IntegratorsError(`"${raw}" is not a valid partita IVA (11 digits with a correct check digit).`);
  return vatNumber;
}

/**
 * A company's own codice fiscale in its stored form (capitals, no spaces): a natural person's 16 characters with their
 * check letter (a sole trader), or 11 digits with the partita IVA's check digit (a body whose tax code is not its VAT
 * number). These are the contributors an F24 names.
 */
export function normalizeCompanyTaxNumber(raw: string): string {
  const taxNumber = raw.replace(/\s/g, '').toUpperCase();
  if (!isValidCodiceFiscale(taxNumber) && !isValidPartitaIva(taxNumber)) {
    throw new IntegratorsError(`"${raw}" is not a valid codice fiscale (16 characters with a correct check letter, or 11 digits with a correct check digit).`);
  }
  return taxNumber;
}

export class IntegratorsService {
  private readonly integrators: IntegratorsRepository;
  private readonly apiKeys: ApiKeysRepository;
  private readonly keys: ApiKeysService;
  private readonly companies: CompaniesRepository;

  constructor(
    db: DataSource,
    private readonly settings: Pick<AppConfig, 'environment' | 'apiKeyPepper'>,
    private readonly invalidateAuth: AuthInvalidation,
  ) {
    this.integrators = new IntegratorsRepository(db);
    this.apiKeys = new ApiKeysRepository(db);
    this.keys = new ApiKeysService(this.apiKeys, settings, invalidateAuth, new SystemClock());
    this.companies = new CompaniesRepository(db);
  }

  async createIntegrator(name: string, contactEmail?: string | null): Promise<IntegratorView> {
    if (!name.trim()) throw new IntegratorsError('An integrator needs a name.');
    const integrator = await this.integrators.create(name.trim(), contactEmail ?? null);
    return {
      id: integrator.id,
      name: integrator.name,
      contact_email: integrator.contactEmail,
      created_at: integrator.createdAt.toISOString(),
    };
  }

  /**
   * Creates a key for the integrator; the returned `key` is the only copy of the secret. `permissions` (a list, or
   * comma-separated) restricts what it may do; without them the key may do everything (`*`).
   */
  async createKey(
    integratorId: string,
    environment: Environment = this.settings.environment,
    name = 'default',
    permissions: string | readonly string[] = ['*'],
  ): Promise<CreatedKey> {
    if (!ENVIRONMENTS.includes(environment)) {
      throw new IntegratorsError(`The environment must be one of ${ENVIRONMENTS.join(', ')}, got "${environment}".`);
    }
    let granted: Permission[];
    try {
      granted = normalizePermissions(permissions);
    } catch (error) {
      if (error instanceof PermissionsError) throw new IntegratorsError(error.message);
      throw error;
    }
    integratorId = await this.requireIntegrator(integratorId);
    const { key, secret } = await this.keys.issue(integratorId, environment, name.trim() || 'default', granted);
    return { ...keyView(key), key: secret };
  }

  /** Keys of one integrator, or of all, oldest first. */
  async listKeys(integratorId?: string): Promise<KeyView[]> {
    const keys = await this.apiKeys.list(integratorId ? requireUuid(integratorId, notUuid('Integrator id')) : undefined);
    return keys.map(keyView);
  }

  /** Revokes a key at once in every API process. Revoking a revoked key changes nothing. */
  async revokeKey(id: string): Promise<KeyView> {
    const key = await this.apiKeys.get(requireUuid(id, notUuid('API key id')));
    if (!key) throw new IntegratorsError(`No API key has the id ${id}.`);
    return keyView(await this.keys.revoke(key));
  }

  async createCompany(input: CompanyInput): Promise<CompanyView> {
    const name = input.name.trim();
    const country = input.country.trim().toUpperCase();
    const fiscalRegime = input.fiscal_regime.trim().toUpperCase();
    if (!name) throw new IntegratorsError('A company needs a name.');
    if (!/^[A-Z]{2}$/.test(country)) throw new IntegratorsError(`The country must be an ISO 3166-1 alpha-2 code such as IT, got "${input.country}".`);
    if (!FISCAL_REGIME.test(fiscalRegime)) {
      throw new IntegratorsError(`The fiscal regime must be a RegimeFiscale code from RF01 to RF20, got "${input.fiscal_regime}".`);
    }
    const vatNumber = input.vat_number ? normalizeCompanyVatNumber(input.vat_number, country) : null;
    const taxNumber = input.tax_number ? normalizeCompanyTaxNumber(input.tax_number) : null;
    const company = await this.companies.create({ name, vatNumber, taxNumber, country, fiscalRegime });
    return companyView(company);
  }

  /** Records (or, with null, clears) a company's own codice fiscale. */
  async setCompanyTaxNumber(companyId: string, raw: string | null): Promise<CompanyView> {
    companyId = requireUuid(companyId, notUuid('Company id'));
    const company = await this.companies.setTaxNumber(companyId, raw ? normalizeCompanyTaxNumber(raw) : null);
    if (!company) throw new IntegratorsError(`No company has the id ${companyId}.`);
    return companyView(company);
  }

  /** Lets the integrator's keys act inside the company. Granting twice keeps the first grant. */
  async grant(integratorId: string, companyId: string): Promise<GrantView> {
    integratorId = await this.requireIntegrator(integratorId);
    companyId = requireUuid(companyId, notUuid('Company id'));
    if (!(await this.companies.exists(companyId))) {
      throw new IntegratorsError(`No company has the id ${companyId}.`);
    }
    const grant = await this.integrators.grant(integratorId, companyId);
    await this.invalidateAuth();
    return { integrator_id: grant.integratorId, company_id: grant.companyId, created_at: grant.createdAt.toISOString() };
  }

  /** The integrator's id in canonical form, once it is known to exist. */
  private async requireIntegrator(id: string): Promise<string> {
    const integratorId = requireUuid(id, notUuid('Integrator id'));
    if (!(await this.integrators.exists(integratorId))) {
      throw new IntegratorsError(`No integrator has the id ${id}.`);
    }
    return integratorId;
  }
}
