import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { REDIS } from '../redis/redis.module.js';

/**
 * Per-API-key rate limit, counted atomically in Redis so it holds across any number of API processes. Every
 * authenticated answer carries the limit and what is left of it.
 */
@Injectable()
export class RateLimiterService {
  private readonly limiter: RateLimiterRedis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig, @Inject(REDIS) redis: Redis) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'flusso:ratelimit',
      points: config.rateLimit.points,
      duration: config.rateLimit.windowSeconds,
    });
  }

  async consume(keyId: string, reply: FastifyReply): Promise<void> {
    const { points, windowSeconds } = this.config.rateLimit;
    reply.header('x-ratelimit-limit', points);
    try {
      const result = await this.limiter.consume(keyId);
      reply.header('x-ratelimit-remaining', result.remainingPoints);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      reply.header('x-ratelimit-remaining', 0);
      throw ApiError.of(
        'too_many_requests',
        `Rate limit of ${points} requests per ${windowSeconds} seconds exceeded; retry in ${retryAfter} seconds.`,
        undefined,
        { 'retry-after': String(retryAfter) },
      );
    }
  }
}
