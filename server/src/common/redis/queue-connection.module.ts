import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { QueueOptions } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { createRedis, queuePrefix, type RedisClient } from './redis-client.js';

export const QUEUE_REDIS = Symbol('QUEUE_REDIS');

/**
 * BullMQ's connection settings. On one Redis server BullMQ opens its connections from the URL; on a cluster it is
 * handed the cluster client of QUEUE_REDIS (BullMQ adds its blocking connections by duplicating it) and the braced
 * prefix that keeps each queue's keys in one slot.
 */
export function queueOptions(config: AppConfig, cluster: RedisClient | null): Pick<QueueOptions, 'connection' | 'prefix'> {
  return { connection: cluster ?? { url: config.redisUrl }, prefix: queuePrefix(config) };
}

/**
 * The cluster client BullMQ shares on a Redis Cluster (null on one Redis server). BullMQ leaves a client it was given
 * open, so this module closes it when the process shuts down. Commands wait for the cluster (BullMQ's blocking reads
 * need `maxRetriesPerRequest: null`); PostgreSQL, not Redis, is the record of the work.
 */
@Module({
  providers: [
    {
      provide: QUEUE_REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): RedisClient | null => {
        if (!config.redisCluster) return null;
        const redis = createRedis(config, { maxRetriesPerRequest: null });
        redis.on('error', () => undefined);
        return redis;
      },
    },
  ],
  exports: [QUEUE_REDIS],
})
export class QueueConnectionModule implements OnApplicationShutdown {
  constructor(@Inject(QUEUE_REDIS) private readonly redis: RedisClient | null) {}

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
