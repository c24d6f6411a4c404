import type { Provider } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client.js';
import { REDIS } from '../redis/redis.module.js';
import { MemoryWindowCounter } from './drivers/memory.driver.js';
import { RedisWindowCounter } from './drivers/redis.driver.js';
import { WINDOW_COUNTER, type WindowCounter } from './window-counter.port.js';

/** The windows of a process with a Redis (the API: shared by every process), else of the process alone. */
export function createWindowCounter(redis: RedisClient | null, now: () => number = Date.now): WindowCounter {
  return redis ? new RedisWindowCounter(redis, now) : new MemoryWindowCounter(now);
}

/** WINDOW_COUNTER on the process's shared Redis connection. */
export const windowCounterProvider: Provider = {
  provide: WINDOW_COUNTER,
  inject: [REDIS],
  useFactory: (redis: RedisClient): WindowCounter => createWindowCounter(redis),
};
