import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig, type Environment } from '../../config/config.js';
import { seal, unseal } from '../crypto/sealed.js';
import { CLAIM_LEASE_SECONDS, KEY_LIFETIME_HOURS } from './idempotency-key.js';

/** Whose key it is: the same key of another integrator, environment or company is another key. */
export interface KeyScope {
  integratorId: string;
  environment: Environment;
  /** The company in the path; null for routes outside a company (webhook endpoints). */
  companyId: string | null;
}

/** An answer as it was sent: replayed as it is to a retry. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as sent (JSON text), or null for an empty one. */
  body: string | null;
}

export type Claim =
  /** The key is this request's: run it, then complete() or release() the claim. */
  | { outcome: 'claimed'; id: string }
  | { outcome: 'completed'; answer: StoredAnswer }
  | { outcome: 'in_progress' }
  /** The key was used with another method, path or body. */
  | { outcome: 'reused' };

interface KeyRow {
  fingerprint: string;
  status: 'in_progress' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/**
 * The `idempotency_keys` table, and nothing else touches it. A key is claimed by one insert that either creates its
 * row, or takes over a row that has expired (24 hours) or whose claim was abandoned (its request died before
 * answering) with the same fingerprint; otherwise the row says what the request gets. The unique index makes two
 * concurrent claims of one key serialise: exactly one of them inserts.
 */
@Injectable()
export class IdempotencyService {
  /** Stored bodies may carry a webhook signing secret: they are sealed under a key derived from WEBHOOK_SECRET_KEY. */
  private readonly sealKey: Buffer;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sealKey = createHmac('sha256', config.webhooks.secretKey).update('flusso idempotent answers').digest();
  }

  async claim(scope: KeyScope, key: string, fingerprint: string): Promise<Claim> {
    const params = [scope.integratorId, scope.environment, scope.companyId, key];
    // A claim and a concurrent release (the first request failed with a 5xx) can cross: the row may vanish between
    // the insert that found it and the read. Claiming again then succeeds or reads the newer row.
    for (let attempt = 1; ; attempt++) {
      const claimed: Array<{ id: string }> = await this.db.query(
        `INSERT INTO idempotency_keys (integrator_id, environment, company_id, key, fingerprint, status, locked_until, expires_at)
           VALUES ($1, $2, $3, $4, $5, 'in_progress', now() + make_interval(secs => $6), now() + make_interval(hours => $7))
         ON CONFLICT (integrator_id, environment, company_id, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, status = 'in_progress', locked_until = EXCLUDED.locked_until,
               response_status = NULL, response_headers = NULL, response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at <= now()
              OR (idempotency_keys.status = 'in_progress' AND idempotency_keys.locked_until <= now() AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
         RETURNING id`,
        [...params, fingerprint, CLAIM_LEASE_SECONDS, KEY_LIFETIME_HOURS],
      );
      if (claimed.length === 1) return { outcome: 'claimed', id: claimed[0].id };
      const [row]: KeyRow[] = await this.db.query(
        `SELECT fingerprint, status, response_status, response_headers, response_body FROM idempotency_keys
          WHERE integrator_id = $1 AND environment = $2 AND company_id IS NOT DISTINCT FROM $3 AND key = $4`,
        params,
      );
      if (row === undefined) {
        if (attempt < 3) continue;
        return { outcome: 'in_progress' };
      }
      if (row.fingerprint !== fingerprint) return { outcome: 'reused' };
      if (row.status === 'in_progress') return { outcome: 'in_progress' };
      return {
        outcome: 'completed',
        answer: {
          status: row.response_status!,
          headers: row.response_headers ?? {},
          body: row.response_body === null ? null : unseal(row.response_body, this.sealKey),
        },
      };
    }
  }

  /** Stores the answer of the request that holds the claim, for its retries. */
  async complete(id: string, answer: StoredAnswer): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET status = 'completed', locked_until = NULL, response_status = $2, response_headers = $3, response_body = $4
        WHERE id = $1 AND status = 'in_progress'`,
      [id, answer.status, answer.headers, answer.body === null ? null : seal(answer.body, this.sealKey)],
    );
  }

  /** Gives the key up (the request failed on the API's side): a retry runs as if it were the first. */
  async release(id: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE id = $1 AND status = 'in_progress'`, [id]);
  }

  /**
   * Deletes up to `limit` expired keys; returns how many. The outer DELETE checks `expires_at` again: a row the
   * subquery found expired may be claimed anew before the DELETE reaches it, and PostgreSQL then re-evaluates the
   * outer condition on the claimed row (which no longer matches) instead of deleting the claim from under its request.
   */
  async deleteExpired(limit = 10_000): Promise<number> {
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
