import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { seal, unseal } from '../crypto/sealed.js';
import { CLAIM_LEASE_SECONDS, KEY_LIFETIME_HOURS } from './idempotency-key.js';
import { IdempotencyRepository, type KeyScope } from './idempotency.repository.js';

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

/**
 * Idempotency keys (`idempotency_keys`, through IdempotencyRepository). A key is claimed by one insert that either
 * creates its row, or takes over a row that has expired (24 hours) or whose claim was abandoned (its request died
 * before answering) with the same fingerprint; otherwise the row says what the request gets.
 */
@Injectable()
export class IdempotencyService {
  /** Stored bodies may carry a webhook signing secret: they are sealed under a key derived from WEBHOOK_SECRET_KEY. */
  private readonly sealKey: Buffer;
  // Built here rather than injected: the worker's module provides this service on its own.
  private readonly keys: IdempotencyRepository;

  constructor(@InjectDataSource() db: DataSource, @Inject(APP_CONFIG) config: AppConfig) {
    this.sealKey = createHmac('sha256', config.webhooks.secretKey).update('flusso idempotent answers').digest();
    this.keys = new IdempotencyRepository(db);
  }

  async claim(scope: KeyScope, key: string, fingerprint: string): Promise<Claim> {
    // A claim and a concurrent release (the first request failed with a 5xx) can cross: the row may vanish between
    // the insert that found it and the read. Claiming again then succeeds or reads the newer row.
    for (let attempt = 1; ; attempt++) {
      const claimed = await this.keys.claim(scope, key, fingerprint, CLAIM_LEASE_SECONDS, KEY_LIFETIME_HOURS);
      if (claimed !== null) return { outcome: 'claimed', id: claimed };
      const row = await this.keys.find(scope, key);
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
    await this.keys.complete(id, answer.status, answer.headers, answer.body === null ? null : seal(answer.body, this.sealKey));
  }

  /** Gives the key up (the request failed on the API's side): a retry runs as if it were the first. */
  async release(id: string): Promise<void> {
    await this.keys.release(id);
  }

  /** Deletes up to `limit` expired keys; returns how many. */
  deleteExpired(limit = 10_000): Promise<number> {
    return this.keys.deleteExpired(limit);
  }
}
