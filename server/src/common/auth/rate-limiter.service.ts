import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { WINDOW_COUNTER, type FixedWindow, type WindowCounter } from '../window-counter/window-counter.port.js';
import { authGenerationKey } from './auth-invalidation.js';

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

/**
 * Per-API-key rate limit in fixed windows (WINDOW_COUNTER: counted atomically in Redis, so it holds across any number
 * of API processes). A process takes requests from its key's window a few at a time (a lease of 1% of the limit, at most 20) and answers
 * them locally, so a busy key costs one Redis round trip per lease rather than per request. The limit is never
 * exceeded; a process may hold a few unused requests when a window ends, which only makes the limit slightly
 * stricter. Every authenticated answer carries the limit and what is left of it.
 *
 * Redis down fails open (the counter's Redis driver): each process counts every key's requests in its own windows
 * against the same limit, so requests go on being served and limited (up to the limit per process rather than in all).
 *
 * Each lease also reads the auth generation (sent with it, not in its script: another key, maybe on another cluster
 * node), which AuthService compares to drop cached keys after a missed invalidation.
 */
@Injectable()
export class RateLimiterService {
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<{ lease: Lease; granted: number }>>();
  private readonly window: FixedWindow;
  private readonly leaseSize: number;
  /** The auth generation as the last lease read it (null: never invalidated); undefined before the first lease. */
  authGeneration: string | null | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WINDOW_COUNTER) private readonly counter: WindowCounter,
  ) {
    this.window = { limit: config.rateLimit.points, windowMs: config.rateLimit.windowSeconds * 1000 };
    this.leaseSize = Math.max(1, Math.min(20, Math.floor(config.rateLimit.points / 100)));
  }

  async consume(keyId: string, reply: FastifyReply): Promise<void> {
    const { points } = this.config.rateLimit;
    reply.header(RATE_LIMIT_LIMIT_HEADER, points);
    let lease = this.usable(keyId);
    while (!lease) {
      // A window known to be spent is refused here, so a flood past the limit does not reach Redis.
      const known = this.leases.get(keyId);
      if (known && known.count >= points && known.resetAt > this.counter.now()) this.refuse(known, reply);
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
    const retryAfter = Math.max(1, Math.ceil((lease.resetAt - this.counter.now()) / 1000));
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
    return lease && lease.tokens > 0 && lease.resetAt > this.counter.now() ? lease : undefined;
  }

  /** One lease request per key at a time in this process. */
  private take(keyId: string): Promise<{ lease: Lease; granted: number }> {
    let pending = this.pending.get(keyId);
    if (!pending) {
      pending = this.lease(keyId)
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

  private async lease(keyId: string): Promise<Lease> {
    const { redisPrefix } = this.config;
    const { granted, count, resetAt, read } = await this.counter.take(
      `${redisPrefix}:ratelimit:${keyId}`,
      this.window,
      this.leaseSize,
      authGenerationKey(redisPrefix),
    );
    if (read !== undefined) this.authGeneration = read;
    return { tokens: granted, count, resetAt };
  }
}
