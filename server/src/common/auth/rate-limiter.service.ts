import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { RedisClient } from '../redis/redis-client.js';
import { REDIS } from '../redis/redis.module.js';
import { authGenerationKey } from './auth-invalidation.js';

/**
 * Takes up to ARGV[3] requests from a key's fixed window (ARGV[1] requests per ARGV[2] ms), atomically.
 * Returns {granted, count after the grant, ms until the window resets}. It touches the window's key only, so on a
 * Redis Cluster each key's window lives in its own slot and the windows spread over the masters.
 */
const LEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
local granted = math.min(tonumber(ARGV[3]), tonumber(ARGV[1]) - count)
if granted > 0 then
  count = redis.call('INCRBY', KEYS[1], granted)
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    ttl = tonumber(ARGV[2])
  end
else
  granted = 0
  if ttl < 0 then ttl = 0 end
end
return {granted, count, ttl}`;

/** The headers of every answer to a request whose API key was recognised: the window's limit and what is left of it. */
export const RATE_LIMIT_LIMIT_HEADER = 'x-ratelimit-limit';
export const RATE_LIMIT_REMAINING_HEADER = 'x-ratelimit-remaining';

/** Requests of one key this process may still answer in the current window without asking Redis. */
interface Lease {
  tokens: number;
  /** The key's whole-window count in Redis when the lease was taken. */
  count: number;
  resetAt: number;
}

type LeaseRedis = RedisClient & {
  flussoRateLease(key: string, points: number, windowMs: number, wanted: number): Promise<[number, number, number]>;
};

/** After Redis fails a lease, how long this process counts on its own before asking Redis again. */
const LOCAL_AFTER_FAILURE_MS = 1000;

/**
 * Per-API-key rate limit in fixed windows, counted atomically in Redis so it holds across any number of API
 * processes. A process takes requests from Redis a few at a time (a lease of 1% of the limit, at most 20) and answers
 * them locally, so a busy key costs one Redis round trip per lease rather than per request. The limit is never
 * exceeded; a process may hold a few unused requests when a window ends, which only makes the limit slightly
 * stricter. Every authenticated answer carries the limit and what is left of it.
 *
 * Redis down fails open: while it does not answer (at once, or within REDIS_COMMAND_TIMEOUT_MS) each process counts
 * every key's requests in its own windows against the same limit, so requests go on being served and limited (up to
 * the limit per process rather than in all), and Redis is asked again a second later.
 *
 * Each lease also reads the auth generation (sent with it, not in its script: another key, maybe on another cluster
 * node), which AuthService compares to drop cached keys after a missed invalidation.
 */
@Injectable()
export class RateLimiterService {
  private readonly redis: LeaseRedis;
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<{ lease: Lease; granted: number }>>();
  private readonly local = new Map<string, { count: number; resetAt: number }>();
  private readonly leaseSize: number;
  private readonly logger = new Logger(RateLimiterService.name);
  private redisFailedAt = 0;
  /** The auth generation as the last lease read it (null: never invalidated); undefined before the first lease. */
  authGeneration: string | null | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: RedisClient,
  ) {
    redis.defineCommand('flussoRateLease', { numberOfKeys: 1, lua: LEASE_SCRIPT });
    this.redis = redis as LeaseRedis;
    this.leaseSize = Math.max(1, Math.min(20, Math.floor(config.rateLimit.points / 100)));
  }

  async consume(keyId: string, reply: FastifyReply): Promise<void> {
    const { points } = this.config.rateLimit;
    reply.header(RATE_LIMIT_LIMIT_HEADER, points);
    let lease = this.usable(keyId);
    while (!lease) {
      // A window known to be spent is refused here, so a flood past the limit does not reach Redis.
      const known = this.leases.get(keyId);
      if (known && known.count >= points && known.resetAt > Date.now()) this.refuse(known, reply);
      const { lease: taken, granted } = await this.take(keyId);
      if (granted === 0) this.refuse(taken, reply);
      // Concurrent requests share one lease; whoever finds it spent asks for another.
      lease = this.usable(keyId);
    }
    lease.tokens--;
    reply.header(RATE_LIMIT_REMAINING_HEADER, Math.max(0, points - lease.count + lease.tokens));
  }

  private refuse(lease: Lease, reply: FastifyReply): never {
    const { points, windowSeconds } = this.config.rateLimit;
    const retryAfter = Math.max(1, Math.ceil((lease.resetAt - Date.now()) / 1000));
    reply.header(RATE_LIMIT_REMAINING_HEADER, 0);
    throw ApiError.of(
      'too_many_requests',
      `Rate limit of ${points} requests per ${windowSeconds} seconds exceeded; retry in ${retryAfter} seconds.`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }

  private usable(keyId: string): Lease | undefined {
    const lease = this.leases.get(keyId);
    return lease && lease.tokens > 0 && lease.resetAt > Date.now() ? lease : undefined;
  }

  /** One lease request per key at a time in this process. */
  private take(keyId: string): Promise<{ lease: Lease; granted: number }> {
    let pending = this.pending.get(keyId);
    if (!pending) {
      pending = (Date.now() - this.redisFailedAt < LOCAL_AFTER_FAILURE_MS ? Promise.resolve(this.takeLocally(keyId)) : this.takeFromRedis(keyId))
        .then((lease) => {
          if (this.leases.size >= 10_000) this.leases.clear();
          this.leases.set(keyId, lease);
          return { lease, granted: lease.tokens };
        })
        .finally(() => this.pending.delete(keyId));
      this.pending.set(keyId, pending);
    }
    return pending;
  }

  private async takeFromRedis(keyId: string): Promise<Lease> {
    const { points, windowSeconds } = this.config.rateLimit;
    const { redisPrefix } = this.config;
    try {
      const [[granted, count, ttl], generation] = await Promise.all([
        this.redis.flussoRateLease(`${redisPrefix}:ratelimit:${keyId}`, points, windowSeconds * 1000, this.leaseSize),
        this.redis.get(authGenerationKey(redisPrefix)),
      ]);
      if (this.redisFailedAt) this.logger.log('Redis answers again: rate limits are counted in Redis');
      this.redisFailedAt = 0;
      this.authGeneration = generation;
      return { tokens: Number(granted), count: Number(count), resetAt: Date.now() + Number(ttl) };
    } catch (error) {
      if (!this.redisFailedAt) this.logger.warn(`Redis unreachable (${(error as Error).message}): rate limits are counted in this process until it answers`);
      this.redisFailedAt = Date.now();
      return this.takeLocally(keyId);
    }
  }

  /** A lease from this process's own window of the key. */
  private takeLocally(keyId: string): Lease {
    const { points, windowSeconds } = this.config.rateLimit;
    const now = Date.now();
    let window = this.local.get(keyId);
    if (!window || window.resetAt <= now) {
      if (this.local.size >= 10_000) this.local.clear();
      window = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.local.set(keyId, window);
    }
    const granted = Math.max(0, Math.min(this.leaseSize, points - window.count));
    window.count += granted;
    return { tokens: granted, count: window.count, resetAt: window.resetAt };
  }
}
