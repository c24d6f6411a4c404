import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/config.js';
import { MemoryWindowCounter } from '../window-counter/drivers/memory.driver.js';
import { FailedAuthThrottle } from './failed-auth-throttle.js';

describe('FailedAuthThrottle (memory windows, time moved instead of waited)', () => {
  const throttle = (now: () => number) =>
    new FailedAuthThrottle(loadConfig({ ...process.env, AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '60' }), new MemoryWindowCounter(now));

  it('blocks a key prefix past the limit until its window ends, then counts it afresh', async () => {
    let now = Date.parse('2026-03-01T09:00:00Z');
    const guard = throttle(() => now);
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await guard.failed('abc123', `192.0.2.${i}`));
    expect(outcomes).toEqual([
      { waitMs: 0, remaining: 2 },
      { waitMs: 0, remaining: 1 },
      // At the limit: this failure is answered 401, the next ones 429 without being looked up.
      { waitMs: 0, remaining: 0 },
      { waitMs: 60_000, remaining: 0 },
    ]);
    expect(guard.blocked('abc123', '192.0.2.99')).toBe(60_000);
    now += 59_000;
    expect(guard.blocked('abc123', '192.0.2.99')).toBe(1000);
    now += 1000;
    expect(guard.blocked('abc123', '192.0.2.99')).toBe(0);
    expect(await guard.failed('abc123', '192.0.2.99')).toEqual({ waitMs: 0, remaining: 2 });
  });

  it('counts an address across key prefixes, and tells what it may still fail without counting', async () => {
    let now = Date.parse('2026-03-01T09:00:00Z');
    const guard = throttle(() => now);
    expect(await guard.remaining('198.51.100.7')).toBe(3);
    await guard.failed('one', '198.51.100.7');
    now += 30_000;
    await guard.failed(undefined, '198.51.100.7');
    expect(await guard.remaining('198.51.100.7')).toBe(1);
    expect(guard.blocked('three', '198.51.100.7')).toBe(0);
    expect(await guard.failed('three', '198.51.100.7')).toEqual({ waitMs: 0, remaining: 0 });
    // The address's window began 30 s before: it is blocked for what is left of it, whatever the prefix.
    expect(guard.blocked('four', '198.51.100.7')).toBe(30_000);
    expect(guard.blocked('four', '198.51.100.8')).toBe(0);
    now += 30_000;
    expect(await guard.remaining('198.51.100.7')).toBe(3);
  });
});
