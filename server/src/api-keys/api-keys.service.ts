import { Logger } from '@nestjs/common';
import { generateKey, hashKey } from '../common/auth/api-key.js';
import type { ApiKey } from '../common/auth/api-key.entity.js';
import { apiKeyList, type ApiKeysRepository, type NewKey } from '../common/auth/api-keys.repository.js';
import type { AuthInvalidation } from '../common/auth/auth-invalidation.js';
import { firstMissing, normalizePermissions, type Permission, PermissionsError } from '../common/auth/permissions.js';
import type { Clock } from '../common/clock/clock.port.js';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { isUuid } from '../common/validation/uuid.js';
import type { AppConfig, Environment } from '../config/config.js';
import type { ApiKeyDto, ApiKeyStatus, ApiKeyWithSecretDto } from './api-key.dto.js';

/** The key calling the API: its integrator's keys of this environment are the ones it sees and manages. */
export interface KeyScope {
  integratorId: string;
  environment: Environment;
  keyId: string;
  permissions: ReadonlySet<string>;
}

/** A key just made, with the only copy of its secret. */
export interface IssuedKey {
  key: ApiKey;
  secret: string;
}

export function keyStatus(key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now: Date): ApiKeyStatus {
  if (key.revokedAt) return 'REVOKED';
  return key.expiresAt && key.expiresAt <= now ? 'EXPIRED' : 'ACTIVE';
}

/** A key as the API shows it, at `now` (its status): never its secret nor its hash. */
export function presentKey(key: ApiKey, now: Date): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    prefix: key.lookup,
    permissions: key.permissions,
    status: keyStatus(key, now),
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/**
 * API keys as integrators manage them through the API (list, create restricted keys, roll, revoke) and as operators do
 * at the CLI (IntegratorsService issues and revokes through `issue` and `revoke`). A key acts only on its integrator's
 * keys of its environment (another's is not found), and never makes or takes over a key that may do more than itself:
 * creating, rolling or revoking a key needs every permission that key holds. Plain classes, so the CLI uses it without
 * booting Nest.
 */
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly settings: Pick<AppConfig, 'apiKeyPepper'>,
    private readonly invalidateAuth: AuthInvalidation,
    private readonly clock: Clock,
  ) {}

  /** A new key; the returned secret is its only copy. `permissions` are in stored form (normalizePermissions). */
  async issue(integratorId: string, environment: Environment, name: string, permissions: Permission[]): Promise<IssuedKey> {
    const { key, secret } = this.newKey(integratorId, environment, name, permissions);
    return { key: await this.apiKeys.create(key), secret };
  }

  /** Revokes the key at once in every API process; revoking a revoked key announces it again and changes nothing. */
  async revoke(key: ApiKey): Promise<ApiKey> {
    await this.markRevoked(key);
    await this.invalidateAuth();
    return key;
  }

  async list(scope: KeyScope, params: QueryParams): Promise<Page<ApiKeyDto>> {
    const query = parseListQuery(params, apiKeyList);
    const { rows, cursor } = await this.apiKeys.page(scope.integratorId, scope.environment, query);
    const now = this.clock.now();
    return page(
      rows.map((key) => presentKey(key, now)),
      cursor,
      query.pageSize,
    );
  }

  async get(scope: KeyScope, id: string): Promise<ApiKeyDto> {
    return presentKey(await this.find(scope, id), this.clock.now());
  }

  async create(scope: KeyScope, body: { name: string; permissions: string[] }): Promise<ApiKeyWithSecretDto> {
    let permissions: Permission[];
    try {
      permissions = normalizePermissions(body.permissions);
    } catch (error) {
      if (error instanceof PermissionsError) throw ApiError.of('unprocessable_entity', error.message, '/permissions');
      throw error;
    }
    this.mayHandOut(scope, permissions, 'a key cannot create a key that may do more than itself');
    const { key, secret } = await this.issue(scope.integratorId, scope.environment, body.name, permissions);
    return { ...presentKey(key, this.clock.now()), secret };
  }

  /**
   * A new key with the same name and permissions, returned once; the rolled key keeps working for `expiresIn` seconds
   * (0: it stops at once). Every process refuses it from then on by itself; the announcement makes processes that
   * cached it read its end now.
   */
  async roll(scope: KeyScope, id: string, expiresIn: number): Promise<ApiKeyWithSecretDto> {
    const old = await this.find(scope, id);
    this.mayHandOut(scope, old.permissions as Permission[], 'rolling a key hands out a new key with its permissions');
    const now = this.clock.now();
    const { key, secret } = this.newKey(old.integratorId, old.environment, old.name, old.permissions as Permission[]);
    const rolled = await this.apiKeys.roll(old.id, new Date(now.getTime() + expiresIn * 1000), now, key);
    if (!rolled) throw ApiError.of('invalid_state', `The API key ${old.id} is ${keyStatus(old, now).toLowerCase()}: only a working key can be rolled.`);
    // The new key's secret exists only in this answer, so it is answered whatever Redis says: a process that cached the
    // old key and missed this then learns its end when its cache entry lapses (AUTH_CACHE_SECONDS) or the generation moves.
    await this.invalidateAuth().catch((error: Error) => this.logger.warn(`API key ${old.id} rolled, but not announced: ${error.message}`));
    return { ...presentKey(rolled.created, now), secret };
  }

  async revokeOwned(scope: KeyScope, id: string): Promise<ApiKeyDto> {
    const key = await this.find(scope, id);
    this.mayHandOut(scope, key.permissions as Permission[], 'a key cannot revoke a key that may do more than itself');
    await this.markRevoked(key);
    await this.announce();
    return presentKey(key, this.clock.now());
  }

  /**
   * Tells every API process to drop what it cached. The revocation is already stored; if Redis cannot take the
   * announcement, processes that still hold the key in their cache would accept it for up to AUTH_CACHE_SECONDS, so
   * the caller gets a 503 and repeats the call (a second revocation changes nothing but announces again).
   */
  private async markRevoked(key: ApiKey): Promise<void> {
    if (key.revokedAt) return;
    key.revokedAt = this.clock.now();
    await this.apiKeys.revoke(key.id, key.revokedAt);
  }

  private async announce(): Promise<void> {
    try {
      await this.invalidateAuth();
    } catch {
      throw ApiError.of(
        'service_unavailable',
        'The key is revoked, but this could not yet be announced to every API process; repeat the call to make sure it applies everywhere at once.',
        undefined,
        { 'retry-after': '1' },
      );
    }
  }

  private newKey(integratorId: string, environment: Environment, name: string, permissions: Permission[]): { key: NewKey; secret: string } {
    const generated = generateKey(environment);
    return {
      key: {
        integratorId,
        environment,
        name,
        lookup: generated.lookup,
        secretHash: hashKey(generated.key, this.settings.apiKeyPepper),
        permissions,
      },
      secret: generated.key,
    };
  }

  private mayHandOut(scope: KeyScope, permissions: Permission[], because: string): void {
    const missing = firstMissing(scope.permissions, permissions);
    if (missing) throw ApiError.insufficientPermission(missing, because);
  }

  private async find(scope: KeyScope, id: string): Promise<ApiKey> {
    const key = isUuid(id) ? await this.apiKeys.findOwned(scope.integratorId, scope.environment, id.toLowerCase()) : null;
    if (!key) throw ApiError.notFound('API key');
    return key;
  }
}
