import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Environment } from '../../config/config.js';
import { DummyValue, GenerateSql } from '../database/generate-sql.js';

/** Whose key it is: the same key of another integrator, environment or company is another key. */
export interface KeyScope {
  integratorId: string;
  environment: Environment;
  /** The company in the path; null for routes outside a company (webhook endpoints). */
  companyId: string | null;
}

/** A key's row as a claim that did not take it reads it. */
export interface KeyRow {
  fingerprint: string;
  status: 'in_progress' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  /** Sealed (the service seals and unseals it). */
  response_body: string | null;
}

const SCOPE: KeyScope = { integratorId: DummyValue.INTEGRATOR_ID, environment: 'development', companyId: DummyValue.COMPANY_ID };

/** The SQL of the `idempotency_keys` table, and nothing else touches it. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Claims a key in one insert that either creates its row, or takes over a row that has expired or whose claim was
   * abandoned (its lease is over) with the same fingerprint; the claim's id, or null when the row is someone else's.
   * The unique index makes two concurrent claims of one key serialise: exactly one of them inserts.
   */
  @GenerateSql({ params: [SCOPE, 'key-1', 'fingerprint', 60, 24] })
  async claim(scope: KeyScope, key: string, fingerprint: string, leaseSeconds: number, lifetimeHours: number): Promise<string | null> {
    const claimed: Array<{ id: string }> = await this.db.query(
      `INSERT INTO idempotency_keys (integrator_id, environment, company_id, key, fingerprint, status, locked_until, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'in_progress', now() + make_interval(secs => $6), now() + make_interval(hours => $7))
       ON CONFLICT (integrator_id, environment, company_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, status = 'in_progress', locked_until = EXCLUDED.locked_until,
             response_status = NULL, response_headers = NULL, response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
            OR (idempotency_keys.status = 'in_progress' AND idempotency_keys.locked_until <= now() AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
       RETURNING id`,
      [scope.integratorId, scope.environment, scope.companyId, key, fingerprint, leaseSeconds, lifetimeHours],
    );
    return claimed[0]?.id ?? null;
  }

  /** The key's row, if it has one. */
  @GenerateSql({ params: [SCOPE, 'key-1'] })
  async find(scope: KeyScope, key: string): Promise<KeyRow | undefined> {
    const [row]: KeyRow[] = await this.db.query(
      `SELECT fingerprint, status, response_status, response_headers, response_body FROM idempotency_keys
        WHERE integrator_id = $1 AND environment = $2 AND company_id IS NOT DISTINCT FROM $3 AND key = $4`,
      [scope.integratorId, scope.environment, scope.companyId, key],
    );
    return row;
  }

  /** Stores the answer (its body already sealed) of the request that holds the claim. */
  @GenerateSql({ params: [DummyValue.UUID, 201, { 'content-type': 'application/json' }, 'sealed'] })
  async complete(id: string, status: number, headers: Record<string, string>, sealedBody: string | null): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET status = 'completed', locked_until = NULL, response_status = $2, response_headers = $3, response_body = $4
        WHERE id = $1 AND status = 'in_progress'`,
      [id, status, headers, sealedBody],
    );
  }

  /** Deletes a claim still in progress. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async release(id: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE id = $1 AND status = 'in_progress'`, [id]);
  }

  /**
   * Deletes up to `limit` expired keys; returns how many. The outer DELETE checks `expires_at` again: a row the
   * subquery found expired may be claimed anew before the DELETE reaches it, and PostgreSQL then re-evaluates the
   * outer condition on the claimed row (which no longer matches) instead of deleting the claim from under its request.
   */
  @GenerateSql({ params: [10_000] })
  async deleteExpired(limit: number): Promise<number> {
    const [{ count }]: Array<{ count: number }> = await this.db.query(
      `WITH deleted AS (
         DELETE FROM idempotency_keys
          WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at <= now() LIMIT $1) AND expires_at <= now()
         RETURNING 1)
       SELECT count(*)::int AS count FROM deleted`,
      [limit],
    );
    return count;
  }
}
