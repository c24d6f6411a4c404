import { type BeforeApplicationShutdown, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { QueueOptions } from 'bullmq';
import type { Cluster } from 'ioredis';
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

/** How long an ended cluster client waits before it connects again. */
const RECONNECT_MS = 1000;

/**
 * Keeps a cluster client of BullMQ, and every client BullMQ duplicates from it (its blocking consumers), connecting
 * until the process shuts down. BullMQ recovers a consumer's cluster client by disconnecting it and connecting it
 * again; while a master is still down that connect fails, and a client disconnected on purpose does not retry: it stays
 * ended, and the worker takes no more jobs of that queue (seen with a master killed and started again).
 */
function keepConnecting(cluster: Cluster, stopping: () => boolean): Cluster {
  cluster.on('end', () => {
    if (stopping()) return;
    setTimeout(() => {
      if (!stopping() && cluster.status === 'end') cluster.connect().catch(() => undefined);
    }, RECONNECT_MS).unref();
  });
  const duplicate = cluster.duplicate.bind(cluster);
  cluster.duplicate = (...args: Parameters<Cluster['duplicate']>) => {
    const copy = keepConnecting(duplicate(...args), stopping);
    copy.on('error', () => undefined);
    return copy;
  };
  return cluster;
}

/** The clients of processes shutting down: BullMQ closes them and their duplicates then, and they stay closed. */
const stopped = new WeakSet<RedisClient>();

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
        const redis: Cluster = keepConnecting(createRedis(config, { maxRetriesPerRequest: null }) as Cluster, () => stopped.has(redis));
        redis.on('error', () => undefined);
        return redis;
      },
    },
  ],
  exports: [QUEUE_REDIS],
})
export class QueueConnectionModule implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(@Inject(QUEUE_REDIS) private readonly redis: RedisClient | null) {}

  beforeApplicationShutdown(): void {
    if (this.redis) stopped.add(this.redis);
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
