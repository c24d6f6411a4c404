import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { AppConfig } from '../../config/config.js';

/** A connection to the installation's Redis: one server (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisClient = Redis | Cluster;

/** Where a process finds Redis. */
export type RedisTarget = Pick<AppConfig, 'redisUrl' | 'redisCluster'>;

/** How long a cluster client waits for the slot map when it connects, and between two tries after a failure. */
const SLOTS_REFRESH_TIMEOUT_MS = 1000;
const CLUSTER_RETRY_MAX_MS = 2000;

/**
 * The one way every process opens a Redis connection (API, worker, CLI, preflight, BullMQ): a client of the server at
 * REDIS_URL, or a cluster client of REDIS_CLUSTER_NODES. `options` are those of one connection (timeouts, retries);
 * on a cluster they apply to the connection to each node, and `lazyConnect` and `enableOfflineQueue` to the whole.
 */
export function createRedis(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  const cluster = target.redisCluster;
  if (!cluster) return new Redis(target.redisUrl, options);
  const { lazyConnect, enableOfflineQueue, ...nodeOptions } = options;
  return new Cluster(cluster.nodes, {
    lazyConnect,
    enableOfflineQueue,
    slotsRefreshTimeout: SLOTS_REFRESH_TIMEOUT_MS,
    // A master lost is answered with CLUSTERDOWN (or a refused connection) until the cluster has failed over: tried
    // again for a moment, within the caller's command timeout, then given to the caller.
    retryDelayOnClusterDown: 100,
    retryDelayOnFailover: 100,
    clusterRetryStrategy: (times) => Math.min(100 * times, CLUSTER_RETRY_MAX_MS),
    redisOptions: {
      ...nodeOptions,
      username: cluster.username,
      password: cluster.password,
      ...(cluster.tls ? { tls: {} } : {}),
    },
  });
}

/**
 * BullMQ's key prefix. A BullMQ script touches several keys of one queue, which a cluster accepts only in one hash
 * slot: on a cluster the prefix is a hash tag (`{flusso}`), so each queue lives on one master.
 */
export function queuePrefix(config: Pick<AppConfig, 'redisPrefix' | 'redisCluster'>): string {
  return config.redisCluster ? `{${config.redisPrefix}}` : config.redisPrefix;
}

/** Where Redis was looked for, for messages: host:port of the server or of the cluster's seed nodes (no password). */
export function describeRedis(target: RedisTarget): string {
  if (target.redisCluster) return `REDIS_CLUSTER_NODES=${target.redisCluster.nodes.map((node) => `${node.host}:${node.port}`).join(',')}`;
  const url = new URL(target.redisUrl);
  if (url.password) url.password = '***';
  return `REDIS_URL=${url.toString()}`;
}
