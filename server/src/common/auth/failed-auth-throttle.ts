import type { AppConfig } from '../../config/config.js';
import type { RedisClient } from '../redis/redis-client.js';

/**
 * Counts one failure in KEYS[1] (a fixed window of ARGV[1] ms); returns {count, ms left}. One key per call, so on a
 * Redis Cluster a prefix's and an address's counters can live on different masters.
 */
const FAILURE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

interface Window {
  count: number;
  resetAt: number;
}

/** At most this many counters or blocks are kept in a process; past it they are forgotten (the limit is a guard). */
const MAX_ENTRIES = 10_000;

/**
 * Failed authentications, counted per key prefix (the key's public lookup part) and per client address in fixed
 * windows shared through Redis. Past the limit a prefix or address is blocked in this process until its window ends:
 * its requests are answered 429 without a database round trip, unless the key is verified from the key cache.
 * While Redis is unreachable each process counts on its own.
 */
export class FailedAuthThrottle {
  private readonly blockedUntil = new Map<string, number>();
  private readonly local = new Map<string, Window>();
  /** Failures allowed per window, for a prefix and for an address. */
  readonly limit: number;
  private readonly windowMs: number;

  constructor(
    private readonly config: Pick<AppConfig, 'authFailures' | 'redisPrefix'>,
    private readonly redis: Pick<RedisClient, 'eval' | 'get'>,
  ) {
    this.limit = config.authFailures.limit;
    this.windowMs = config.authFailures.windowSeconds * 1000;
  }

  /** Milliseconds until the prefix or the address may try again; 0 when neither is blocked. */
  blocked(lookup: string | undefined, address: string): number {
    const now = Date.now();
    let wait = 0;
    for (const subject of this.subjects(lookup, address)) {
      const until = this.blockedUntil.get(subject);
      if (until === undefined) continue;
      if (until <= now) this.blockedUntil.delete(subject);
      else wait = Math.max(wait, until - now);
    }
    return wait;
  }

  /**
   * Counts a failure. Returns the milliseconds to wait when it took the prefix or the address past the limit (else 0),
   * and the failures the prefix and the address may still make in their windows (the fewer of the two).
   */
  async failed(lookup: string | undefined, address: string): Promise<{ waitMs: number; remaining: number }> {
    const subjects = this.subjects(lookup, address);
    const counts = await this.countInRedis(subjects).catch(() => this.countLocally(subjects));
    const now = Date.now();
    let wait = 0;
    subjects.forEach((subject, i) => {
      const { count, resetAt } = counts[i];
      if (count < this.limit) return;
      if (this.blockedUntil.size >= MAX_ENTRIES) this.blockedUntil.clear();
      this.blockedUntil.set(subject, resetAt);
      if (count > this.limit) wait = Math.max(wait, resetAt - now);
    });
    return { waitMs: wait, remaining: Math.max(0, this.limit - Math.max(...counts.map((c) => c.count))) };
  }

  /** The failures the address may still make in its window, counting nothing. */
  async remaining(address: string): Promise<number> {
    const [subject] = this.subjects(undefined, address);
    const redisCount = await (this.redis.get(subject) as Promise<string | null>).then(Number, () => undefined);
    const localWindow = this.local.get(subject);
    const count = redisCount ?? (localWindow && localWindow.resetAt > Date.now() ? localWindow.count : 0);
    return Math.max(0, this.limit - count);
  }

  private subjects(lookup: string | undefined, address: string): string[] {
    const prefix = `${this.config.redisPrefix}:authfail`;
    return lookup === undefined ? [`${prefix}:address:${address}`] : [`${prefix}:key:${lookup}`, `${prefix}:address:${address}`];
  }

  private async countInRedis(subjects: string[]): Promise<Window[]> {
    const replies = await Promise.all(subjects.map((subject) => this.redis.eval(FAILURE_SCRIPT, 1, subject, this.windowMs) as Promise<[number, number]>));
    const now = Date.now();
    return replies.map(([count, ttl]) => ({ count: Number(count), resetAt: now + Number(ttl) }));
  }

  private countLocally(subjects: string[]): Window[] {
    const now = Date.now();
    return subjects.map((subject) => {
      let window = this.local.get(subject);
      if (!window || window.resetAt <= now) {
        if (this.local.size >= MAX_ENTRIES) this.local.clear();
        window = { count: 0, resetAt: now + this.windowMs };
        this.local.set(subject, window);
      }
      window.count++;
      return { ...window };
    });
  }
}
