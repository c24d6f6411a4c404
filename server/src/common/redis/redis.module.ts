import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { createRedis, type RedisClient } from './redis-client.js';

export const REDIS = Symbol('REDIS');

/** How long a process waits for Redis when it starts, so its first requests find it connected; then it goes on. */
const STARTUP_WAIT_MS = 2000;

/** Resolves once the connection is ready, or after `ms` (Redis down: the process starts without it). */
export function whenReady(redis: RedisClient, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

/**
 * One shared Redis connection per process (rate limits, auth-cache invalidation, failed-authentication counts), to the
 * Redis server or the Redis Cluster (redis-client.ts). BullMQ opens its own. A command fails at once while Redis is not
 * connected (no offline queue, no retries) and after REDIS_COMMAND_TIMEOUT_MS when Redis does not answer, so its
 * callers can go on without it instead of waiting.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const redis = createRedis(config, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: config.redisCommandTimeoutMs });
        // Failures surface on the commands; the connection itself keeps reconnecting.
        redis.on('error', () => undefined);
        await whenReady(redis, STARTUP_WAIT_MS);
        return redis;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
