import { Logger } from '@nestjs/common';
import type { RedisClient } from '../../redis/redis-client.js';
import type { FixedWindow, WindowCounter, WindowTake } from '../window-counter.port.js';
import { MemoryWindowCounter } from './memory.driver.js';

/**
 * Takes up to ARGV[3] hits from a key's fixed window (ARGV[1] hits per ARGV[2] ms), atomically. Returns {granted, count
 * after the grant, ms until the window resets}. It touches the window's key only, so on a Redis Cluster each key's
 * window lives in its own slot (no hash tag) and the windows spread over the masters.
 */
const TAKE_SCRIPT = `
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

type TakeRedis = RedisClient & {
  flussoWindowTake(key: string, limit: number, windowMs: number, wanted: number): Promise<[number, number, number]>;
};

/** After Redis fails a command, how long this process counts on its own before asking Redis again. */
export const LOCAL_AFTER_FAILURE_MS = 1000;

/**
 * Windows counted atomically in Redis, so they hold across any number of processes. Redis down fails open: while it
 * does not answer (at once, or within REDIS_COMMAND_TIMEOUT_MS) the process counts every key in its own windows
 * (MemoryWindowCounter) against the same limits, and asks Redis again a second later. Windows counted meanwhile are
 * the process's own: once Redis answers, the shared ones count again.
 */
export class RedisWindowCounter implements WindowCounter {
  private readonly redis: TakeRedis;
  private readonly local: MemoryWindowCounter;
  private readonly logger = new Logger(RedisWindowCounter.name);
  /** When Redis last failed a command (on this counter's clock); 0 while it answers. */
  private failedAt = 0;

  constructor(
    redis: RedisClient,
    readonly now: () => number = Date.now,
  ) {
    redis.defineCommand('flussoWindowTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as TakeRedis;
    this.local = new MemoryWindowCounter(now);
  }

  async take(key: string, window: FixedWindow, wanted: number, read?: string): Promise<WindowTake> {
    if (this.failedRecently()) return this.local.takeNow(key, window, wanted);
    try {
      // The read rides along (another key, maybe on another cluster node); both answer or the window is counted here.
      const [[granted, count, ttl], value] = await Promise.all([
        this.redis.flussoWindowTake(key, window.limit, window.windowMs, wanted),
        read === undefined ? undefined : this.redis.get(read),
      ]);
      this.answered();
      return { granted: Number(granted), count: Number(count), resetAt: this.now() + Number(ttl), ...(read !== undefined && { read: value }) };
    } catch (error) {
      this.failed(error as Error);
      return this.local.takeNow(key, window, wanted);
    }
  }

  async count(key: string): Promise<number> {
    if (this.failedRecently()) return this.local.countNow(key);
    try {
      const count = Number(await this.redis.get(key));
      this.answered();
      return count;
    } catch (error) {
      this.failed(error as Error);
      return this.local.countNow(key);
    }
  }

  private failedRecently(): boolean {
    return this.failedAt !== 0 && this.now() - this.failedAt < LOCAL_AFTER_FAILURE_MS;
  }

  private answered(): void {
    if (this.failedAt) this.logger.log('Redis answers again: rate limits and failed authentications are counted in Redis');
    this.failedAt = 0;
  }

  private failed(error: Error): void {
    if (!this.failedAt) {
      this.logger.warn(`Redis unreachable (${error.message}): rate limits and failed authentications are counted in this process until it answers`);
    }
    this.failedAt = this.now();
  }
}
