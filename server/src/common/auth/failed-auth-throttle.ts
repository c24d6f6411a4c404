import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { WINDOW_COUNTER, type FixedWindow, type WindowCounter } from '../window-counter/window-counter.port.js';

/** At most this many blocks are kept in a process; past it they are forgotten (the limit is a guard). */
const MAX_ENTRIES = 10_000;

/**
 * Failed authentications, counted per key prefix (the key's public lookup part) and per client address in fixed
 * windows shared through Redis (WINDOW_COUNTER). Past the limit a prefix or address is blocked in this process until
 * its window ends: its requests are answered 429 without a database round trip, unless the key is verified from the key
 * cache. While Redis is unreachable each process counts on its own.
 */
@Injectable()
export class FailedAuthThrottle {
  private readonly blockedUntil = new Map<string, number>();
  /** Failures allowed per window, for a prefix and for an address. */
  readonly limit: number;
  /**
   * The counter's window: one failure past the limit is counted (that failure is answered 429), none after it, so a
   * window's count stays bounded however long a flood lasts.
   */
  private readonly window: FixedWindow;

  constructor(
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'authFailures' | 'redisPrefix'>,
    @Inject(WINDOW_COUNTER) private readonly counter: WindowCounter,
  ) {
    this.limit = config.authFailures.limit;
    this.window = { limit: this.limit + 1, windowMs: config.authFailures.windowSeconds * 1000 };
  }

  /** Milliseconds until the prefix or the address may try again; 0 when neither is blocked. */
  blocked(lookup: string | undefined, address: string): number {
    const now = this.counter.now();
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
    const counts = await Promise.all(subjects.map((subject) => this.counter.take(subject, this.window, 1)));
    const now = this.counter.now();
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
    return Math.max(0, this.limit - (await this.counter.count(subject)));
  }

  private subjects(lookup: string | undefined, address: string): string[] {
    const prefix = `${this.config.redisPrefix}:authfail`;
    return lookup === undefined ? [`${prefix}:address:${address}`] : [`${prefix}:key:${lookup}`, `${prefix}:address:${address}`];
  }
}
