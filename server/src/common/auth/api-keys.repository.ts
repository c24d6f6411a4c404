import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Environment } from '../../config/config.js';
import { DummyValue, GenerateSql } from '../database/generate-sql.js';
import { ApiKey } from './api-key.entity.js';

/** An unrevoked key as authentication reads it, with the companies its integrator is granted. */
export interface UsableKey {
  id: string;
  integrator_id: string;
  environment: Environment;
  secret_hash: string;
  permissions: string[];
  company_ids: string[];
}

/** What a new key stores: never its secret, only the keyed hash of it. */
export type NewKey = Pick<ApiKey, 'integratorId' | 'environment' | 'name' | 'lookup' | 'secretHash' | 'permissions'>;

/** The SQL of API keys: the lookup of every authenticated request, and the operator's keys (create, list, revoke). */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The unrevoked key with this lookup and the companies granted to its integrator, in one query. */
  @GenerateSql({ params: ['fl_test_0123456789abcdef'] })
  async findUsable(lookup: string): Promise<UsableKey | undefined> {
    const [row] = await this.db.query(
      `SELECT k.id, k.integrator_id, k.environment, k.secret_hash, k.permissions,
              coalesce(array_agg(g.company_id::text) FILTER (WHERE g.company_id IS NOT NULL), '{}') AS company_ids
         FROM api_keys k LEFT JOIN company_grants g ON g.integrator_id = k.integrator_id
        WHERE k.lookup = $1 AND k.revoked_at IS NULL
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
    return this.db.getRepository(ApiKey).save({ ...key, revokedAt: null });
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
}
