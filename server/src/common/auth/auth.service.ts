import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CLOCK, type Clock } from '../clock/clock.port.js';
import { ApiError } from '../errors/api-error.js';
import { createRedis, type RedisClient } from '../redis/redis-client.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { hashesMatch, hashKey, KEY_PREFIX, keysMatch, parseKey, type ParsedKey } from './api-key.js';
import type { AuthContext } from './auth-context.js';
import { authInvalidationChannel } from './auth-invalidation.js';
import { FailedAuthThrottle } from './failed-auth-throttle.js';
import { KeyUsage } from './key-usage.js';
import { RATE_LIMIT_LIMIT_HEADER, RATE_LIMIT_REMAINING_HEADER, RateLimiterService } from './rate-limiter.service.js';

/** What the database said about one key lookup, kept briefly in the process. */
interface CachedLookup {
  /** The stored hash of the lookup's usable key, or null when it has none (unknown, revoked, other environment). */
  hash: string | null;
  context: AuthContext | null;
  /** When the key stops working (a rolled key), in clock milliseconds; null for a key that was never rolled. */
  keyExpiresAt: number | null;
  /** The key last verified against `hash`, held only in this process's memory: a hit costs a compare, no HMAC. */
  key?: string;
  expiresAt: number;
}

const NOT_VALID = 'The API key is not valid, has been revoked or has expired.';

/**
 * Turns a bearer token into an AuthContext. What the database says about a key lookup (its stored hash and grants, or
 * that it has no usable key) is cached briefly in the process, so a hot key costs no database round trip and neither
 * does a wrong secret for a known lookup. The cache is trusted only while this process is subscribed to the
 * invalidation channel; it is emptied on every (re)subscription, on every announcement, and when the auth generation
 * read with a rate-limit lease has changed (an announcement missed). A rolled key's end comes with it, so each process
 * refuses it from then on by itself, cached or not. Failed authentications are throttled per key lookup and per client
 * address (FailedAuthThrottle): 429 once over the limit. Time is the clock port's (tests move it).
 */
@Injectable()
export class AuthService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AuthService.name);
  private readonly cache = new Map<string, CachedLookup>();
  private subscriber?: RedisClient;
  private subscribed = false;
  private closing = false;
  private generation: string | null | undefined;
  /** Counts the times the cache was emptied: a lookup that began before one is not cached. */
  private epoch = 0;

  /** How many times this process has emptied its cache so far (an announcement received, a resubscription). */
  get invalidations(): number {
    return this.epoch;
  }

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly apiKeys: ApiKeysRepository,
    private readonly rateLimiter: RateLimiterService,
    private readonly throttle: FailedAuthThrottle,
    private readonly usage: KeyUsage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    if (config.authCacheSeconds > 0) this.subscriber = createRedis(config, { autoResubscribe: false, lazyConnect: true });
  }

  /** Starts listening for invalidations; waits (a little) for the first subscription, so the cache serves at once. */
  async onModuleInit(): Promise<void> {
    const subscriber = this.subscriber;
    if (!subscriber) return;
    let firstSubscription!: () => void;
    const subscribedOnce = new Promise<void>((resolve) => (firstSubscription = resolve));
    const channel = authInvalidationChannel(this.config.redisPrefix);
    subscriber.on('message', () => this.forget());
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(
        () => {
          // Whatever was announced while this process was not listening is lost: forget everything.
          this.forget();
          this.subscribed = true;
          firstSubscription();
        },
        (error: Error) => this.logger.warn(`auth invalidation channel: ${error.message}`),
      );
    });
    subscriber.on('close', () => {
      if (this.subscribed && !this.closing) this.logger.warn('auth invalidation channel lost: keys are checked in the database until it is back');
      this.subscribed = false;
      this.forget();
    });
    // A cluster client moves its subscription to another node when the node it listened on is lost; what was announced
    // in between is lost too.
    subscriber.on('-node', () => this.forget());
    subscriber.on('error', () => undefined);
    subscriber.connect().catch(() => undefined);
    await Promise.race([subscribedOnce, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  async authenticate(authorization: string | undefined, address: string): Promise<AuthContext> {
    if (!authorization) throw await this.unauthorized('Send an API key as a bearer token: "Authorization: Bearer <API key>".', address);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw await this.unauthorized('The Authorization header must be "Bearer <API key>".', address);
    const parsed = parseKey(match[1]);
    if (!parsed) return this.refuse(undefined, address);
    if (parsed.environment !== this.config.environment) {
      throw await this.unauthorized(
        `This is a ${parsed.environment} API key, but this is the ${this.config.environment} environment; ` +
          `use a key starting with ${KEY_PREFIX[this.config.environment]}.`,
        address,
      );
    }
    const now = this.clock.now().getTime();
    const cached = this.cached(parsed.lookup, now);
    if (cached) return this.verify(cached, parsed, address, now);
    const wait = this.throttle.blocked(parsed.lookup, address);
    if (wait > 0) this.tooMany(wait);
    return this.verify(await this.load(parsed.lookup, now), parsed, address, now);
  }

  private cached(lookup: string, now: number): CachedLookup | undefined {
    if (!this.subscribed) return undefined;
    const generation = this.rateLimiter.authGeneration;
    if (generation !== this.generation) {
      // The first generation read is the baseline (the subscription covered the time before it); a change is a miss.
      const missed = this.generation !== undefined;
      this.generation = generation;
      if (missed) {
        this.forget();
        return undefined;
      }
    }
    const entry = this.cache.get(lookup);
    return entry && entry.expiresAt > now ? entry : undefined;
  }

  private async verify(entry: CachedLookup, parsed: ParsedKey, address: string, now: number): Promise<AuthContext> {
    const context = entry.keyExpiresAt === null || now < entry.keyExpiresAt ? entry.context : null;
    if (context && entry.key !== undefined && keysMatch(entry.key, parsed.key)) {
      this.usage.used(context.keyId, now);
      return context;
    }
    if (context && entry.hash && hashesMatch(entry.hash, hashKey(parsed.key, this.config.apiKeyPepper))) {
      entry.key = parsed.key;
      this.usage.used(context.keyId, now);
      return context;
    }
    return this.refuse(parsed.lookup, address);
  }

  private async load(lookup: string, now: number): Promise<CachedLookup> {
    const epoch = this.epoch;
    const row = await this.apiKeys.findUsable(lookup);
    const usable = row && row.environment === this.config.environment;
    const entry: CachedLookup = {
      hash: usable ? row.secret_hash : null,
      context: usable
        ? {
            keyId: row.id,
            keyPrefix: lookup,
            integratorId: row.integrator_id,
            environment: row.environment,
            companyIds: new Set<string>(row.company_ids),
            permissions: new Set<string>(row.permissions),
          }
        : null,
      keyExpiresAt: usable && row.expires_at ? row.expires_at.getTime() : null,
      expiresAt: now + this.config.authCacheSeconds * 1000,
    };
    if (this.subscribed && this.epoch === epoch && this.config.authCacheSeconds > 0) {
      if (this.cache.size >= 10_000) this.cache.clear();
      this.cache.set(lookup, entry);
    }
    return entry;
  }

  /** Empties the cache, and keeps lookups under way from filling it with what they read before. */
  private forget(): void {
    this.cache.clear();
    this.epoch++;
  }

  /** 401 for a key that failed, or 429 when failures of its lookup or address are over the limit. */
  private async refuse(lookup: string | undefined, address: string): Promise<never> {
    const blocked = this.throttle.blocked(lookup, address);
    if (blocked > 0) this.tooMany(blocked);
    const { waitMs, remaining } = await this.throttle.failed(lookup, address);
    if (waitMs > 0) this.tooMany(waitMs);
    throw ApiError.of('unauthorized', NOT_VALID, undefined, this.allowance(remaining));
  }

  /** 401 for a request that names no usable key: nothing is counted; the headers say what its address may still fail. */
  private async unauthorized(detail: string, address: string): Promise<ApiError> {
    return ApiError.of('unauthorized', detail, undefined, this.allowance(await this.throttle.remaining(address)));
  }

  private tooMany(waitMs: number): never {
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    throw ApiError.of('too_many_requests', `Too many failed authentications from this address or for this key; retry in ${retryAfter} seconds.`, undefined, {
      'retry-after': String(retryAfter),
      ...this.allowance(0),
    });
  }

  /**
   * The rate-limit headers of an answer without a valid key: there is no key to count against, so they carry the
   * failed authentications allowed per window (AUTH_FAILURE_LIMIT) and how many are left.
   */
  private allowance(remaining: number): Record<string, string> {
    return { [RATE_LIMIT_LIMIT_HEADER]: String(this.throttle.limit), [RATE_LIMIT_REMAINING_HEADER]: String(remaining) };
  }
}
