import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { REDIS } from '../redis/redis.module.js';
import { hashesMatch, hashKey, KEY_PREFIX, keysMatch, parseKey } from './api-key.js';
import type { AuthContext } from './auth-context.js';

/** Redis channel on which any process announces a revoked key or a changed grant. */
export const AUTH_INVALIDATION_CHANNEL = 'flusso:auth:invalidate';

interface CachedKey {
  /** The verified key itself, held only in this process's memory: a hit costs a constant-time compare, no hash. */
  key: string;
  context: AuthContext;
  expiresAt: number;
}

/**
 * Turns a bearer token into an AuthContext. Verified keys are cached briefly in the process so a hot key costs no
 * database round trip; a revocation or grant change is broadcast over Redis and evicts the entry in every process.
 */
@Injectable()
export class AuthService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AuthService.name);
  private readonly cache = new Map<string, CachedKey>();
  private subscriber?: Redis;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.authCacheSeconds === 0) return;
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', () => this.cache.clear());
    this.subscriber.on('error', (error) => this.logger.warn(`auth invalidation channel: ${error.message}`));
    await this.subscriber.subscribe(AUTH_INVALIDATION_CHANNEL);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    if (!authorization) {
      throw ApiError.of('unauthorized', 'Send an API key as a bearer token: "Authorization: Bearer <API key>".');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw ApiError.of('unauthorized', 'The Authorization header must be "Bearer <API key>".');
    const parsed = parseKey(match[1]);
    if (!parsed) throw ApiError.of('unauthorized', 'The API key is not valid or has been revoked.');
    if (parsed.environment !== this.config.environment) {
      throw ApiError.of(
        'unauthorized',
        `This is a ${parsed.environment} API key, but this is the ${this.config.environment} environment; ` +
          `use a key starting with ${KEY_PREFIX[this.config.environment]}.`,
      );
    }
    const cached = this.cache.get(parsed.lookup);
    if (cached && cached.expiresAt > Date.now() && keysMatch(cached.key, parsed.key)) return cached.context;
    const hash = hashKey(parsed.key, this.config.apiKeyPepper);

    const [row] = await this.db.query(
      `SELECT k.id, k.integrator_id, k.environment, k.secret_hash,
              coalesce(array_agg(g.company_id::text) FILTER (WHERE g.company_id IS NOT NULL), '{}') AS company_ids
         FROM api_keys k LEFT JOIN company_grants g ON g.integrator_id = k.integrator_id
        WHERE k.lookup = $1 AND k.revoked_at IS NULL
        GROUP BY k.id`,
      [parsed.lookup],
    );
    if (!row || row.environment !== this.config.environment || !hashesMatch(row.secret_hash, hash)) {
      throw ApiError.of('unauthorized', 'The API key is not valid or has been revoked.');
    }
    const context: AuthContext = {
      keyId: row.id,
      integratorId: row.integrator_id,
      environment: row.environment,
      companyIds: new Set<string>(row.company_ids),
    };
    if (this.config.authCacheSeconds > 0) {
      if (this.cache.size >= 10_000) this.cache.clear();
      this.cache.set(parsed.lookup, { key: parsed.key, context, expiresAt: Date.now() + this.config.authCacheSeconds * 1000 });
    }
    return context;
  }

  /** Tells every API process to forget cached keys (after a revocation or a grant change). */
  async broadcastInvalidation(): Promise<void> {
    this.cache.clear();
    await this.redis.publish(AUTH_INVALIDATION_CHANNEL, 'all');
  }
}
