import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Environment } from '../../config/config.js';
import { DummyValue, GenerateSql } from '../database/generate-sql.js';
import { defineList } from '../listing/list-spec.js';
import { fetchPage } from '../listing/list-page.js';
import { parseListQuery, type ListQuery } from '../listing/list-query.js';
import { ApiKey } from './api-key.entity.js';

/** `GET /api-keys`: the integrator's keys of the environment, oldest first. */
export const apiKeyList = defineList({
  alias: 'k',
  sorts: { created_at: { column: 'k.createdAt', type: 'datetime' } },
  defaultSort: 'created_at',
});

/** An unrevoked key as authentication reads it, with the companies its integrator is granted. */
export interface UsableKey {
  id: string;
  integrator_id: string;
  environment: Environment;
  secret_hash: string;
  permissions: string[];
  /** When a rolled key stops working; null for one that was never rolled. */
  expires_at: Date | null;
  company_ids: string[];
}

/** What a new key stores: never its secret, only the keyed hash of it. */
export type NewKey = Pick<ApiKey, 'integratorId' | 'environment' | 'name' | 'lookup' | 'secretHash' | 'permissions'>;

/**
 * The SQL of API keys: the lookup of every authenticated request, when keys were last used, and the keys integrators
 * (through the API) and operators (through the CLI) manage: create, list, roll, revoke.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The unrevoked, unexpired key with this lookup and the companies granted to its integrator, in one query. Its
   * `expires_at` comes along: a process that caches the key refuses it from then on without asking again.
   */
  @GenerateSql({ params: ['fl_test_0123456789abcdef'] })
  async findUsable(lookup: string): Promise<UsableKey | undefined> {
    const [row] = await this.db.query(
      `SELECT k.id, k.integrator_id, k.environment, k.secret_hash, k.permissions, k.expires_at,
              coalesce(array_agg(g.company_id::text) FILTER (WHERE g.company_id IS NOT NULL), '{}') AS company_ids
         FROM api_keys k LEFT JOIN company_grants g ON g.integrator_id = k.integrator_id
        WHERE k.lookup = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
        GROUP BY k.id`,
      [lookup],
    );
    return row;
  }

  @GenerateSql({
    params: [
      {
        integratorId: DummyValue.INTEGRATOR_ID,
        environment: 'development',
        name: 'default',
        lookup: 'fl_test_0123456789abcdef',
        secretHash: 'ab',
        permissions: ['*'],
      },
    ],
  })
  create(key: NewKey): Promise<ApiKey> {
    return this.db.getRepository(ApiKey).save({ ...key, revokedAt: null, expiresAt: null, lastUsedAt: null });
  }

  /** A page of an integrator's keys in one environment. */
  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID, 'production', parseListQuery({}, apiKeyList)] })
  page(integratorId: string, environment: Environment, query: ListQuery): Promise<{ rows: ApiKey[]; cursor: string | null }> {
    const base = this.db
      .getRepository(ApiKey)
      .createQueryBuilder('k')
      .where('k.integratorId = :integratorId AND k.environment = :environment', { integratorId, environment });
    return fetchPage(base, apiKeyList, query);
  }

  /** One key of an integrator in one environment: another's is not found. */
  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID, 'production', DummyValue.UUID] })
  findOwned(integratorId: string, environment: Environment, id: string): Promise<ApiKey | null> {
    return this.db.getRepository(ApiKey).findOneBy({ id, integratorId, environment });
  }

  /**
   * Rolls a key: it stops working at `expiresAt` (or sooner, if an earlier roll said so) and `next` is created, in one
   * transaction. Null, and nothing created, when the key is revoked or no longer works at `now`.
   */
  @GenerateSql({
    params: [
      DummyValue.UUID,
      DummyValue.TIMESTAMP,
      DummyValue.TIMESTAMP,
      {
        integratorId: DummyValue.INTEGRATOR_ID,
        environment: 'development',
        name: 'default',
        lookup: 'fl_test_0123456789abcdef',
        secretHash: 'ab',
        permissions: ['*'],
      },
    ],
  })
  roll(id: string, expiresAt: Date, now: Date, next: NewKey): Promise<{ rolled: ApiKey; created: ApiKey } | null> {
    return this.db.transaction(async (manager) => {
      const [rows] = await manager.query(
        `UPDATE api_keys SET expires_at = least(coalesce(expires_at, $2), $2)
          WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3)
          RETURNING id`,
        [id, expiresAt, now],
      );
      if (rows.length === 0) return null;
      const keys = manager.getRepository(ApiKey);
      const created = await keys.save({ ...next, revokedAt: null, expiresAt: null, lastUsedAt: null });
      return { rolled: await keys.findOneByOrFail({ id }), created };
    });
  }

  /** The keys of one integrator, or of all, oldest first. */
  @GenerateSql({ name: 'of an integrator', params: [DummyValue.INTEGRATOR_ID] }, { name: 'all', params: [] })
  list(integratorId?: string): Promise<ApiKey[]> {
    return this.db.getRepository(ApiKey).find({ where: integratorId ? { integratorId } : {}, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  @GenerateSql({ params: [DummyValue.UUID] })
  async get(id: string): Promise<ApiKey | null> {
    return this.db.getRepository(ApiKey).findOneBy({ id });
  }

  @GenerateSql({ params: [DummyValue.UUID, DummyValue.TIMESTAMP] })
  async revoke(id: string, at: Date): Promise<void> {
    await this.db.getRepository(ApiKey).update({ id }, { revokedAt: at });
  }

  /** Notes that these keys authenticated requests at `at`, in one statement; a later time already noted is kept. */
  @GenerateSql({ params: [[DummyValue.UUID], DummyValue.TIMESTAMP] })
  async noteUsed(ids: readonly string[], at: Date): Promise<void> {
    await this.db.query(`UPDATE api_keys SET last_used_at = $2 WHERE id = ANY($1::uuid[]) AND (last_used_at IS NULL OR last_used_at < $2)`, [ids, at]);
  }
}
