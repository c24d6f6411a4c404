import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { PrivateRedis } from '../../../test/redis-server.js';
import { MemoryWindowCounter } from './drivers/memory.driver.js';
import { LOCAL_AFTER_FAILURE_MS, RedisWindowCounter } from './drivers/redis.driver.js';
import type { WindowCounter } from './window-counter.port.js';

const WINDOW = { limit: 5, windowMs: 60_000 };

/** What every driver does with one window: grants up to the limit, never past it, and starts again when it ends. */
async function windowsOf(counter: WindowCounter, moveTime: (ms: number) => Promise<void>): Promise<void> {
  const key = `window-counter-test:${randomUUID()}`;
  expect(await counter.count(key)).toBe(0);
  const first = await counter.take(key, WINDOW, 3);
  expect(first).toMatchObject({ granted: 3, count: 3 });
  expect(first.resetAt - counter.now()).toBeGreaterThan(WINDOW.windowMs - 1000);
  expect(first.resetAt - counter.now()).toBeLessThanOrEqual(WINDOW.windowMs);
  expect(await counter.take(key, WINDOW, 3)).toMatchObject({ granted: 2, count: 5 });
  expect(await counter.take(key, WINDOW, 1)).toMatchObject({ granted: 0, count: 5 });
  expect(await counter.count(key)).toBe(5);
  await moveTime(WINDOW.windowMs);
  expect(await counter.count(key)).toBe(0);
  expect(await counter.take(key, WINDOW, 1)).toMatchObject({ granted: 1, count: 1 });
}

describe('MemoryWindowCounter', () => {
  it('grants up to the limit in a window and starts a new one when it ends, on its own clock', async () => {
    let now = 1_000_000;
    const counter = new MemoryWindowCounter(() => now);
    await windowsOf(counter, async (ms) => {
      now += ms;
    });
  });

  it('reads nothing alongside: it has no shared store', async () => {
    const counter: WindowCounter = new MemoryWindowCounter();
    const taken = await counter.take('k', WINDOW, 1, 'some-key');
    expect(taken.read).toBeUndefined();
  });
});

describe('RedisWindowCounter', () => {
  let privateRedis: PrivateRedis;
  let redis: Redis;

  beforeAll(async () => {
    privateRedis = await PrivateRedis.start();
    redis = new Redis(privateRedis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 500 });
    redis.on('error', () => undefined);
    while (redis.status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
  });

  afterAll(async () => {
    redis.disconnect();
    await privateRedis.close();
  });

  it('grants up to the limit in a window shared by every process, and starts a new one when Redis expires it', async () => {
    const counter = new RedisWindowCounter(redis);
    // Redis keeps the time: the window is ended by expiring its key, as PEXPIRE would when it is due.
    await windowsOf(counter, async () => {
      for (const key of await redis.keys('window-counter-test:*')) await redis.pexpire(key, 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    const [a, b] = [new RedisWindowCounter(redis), new RedisWindowCounter(redis)];
    const key = `window-counter-test:${randomUUID()}`;
    const grants = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take(key, WINDOW, 1)));
    expect(grants.reduce((sum, take) => sum + take.granted, 0)).toBe(WINDOW.limit);
    expect(await redis.pttl(key)).toBeGreaterThan(WINDOW.windowMs - 5000);
  });

  it('reads a key in the same round trip', async () => {
    await redis.set('window-counter-test:generation', '7');
    const counter = new RedisWindowCounter(redis);
    expect((await counter.take(`window-counter-test:${randomUUID()}`, WINDOW, 1, 'window-counter-test:generation')).read).toBe('7');
    expect((await counter.take(`window-counter-test:${randomUUID()}`, WINDOW, 1, 'window-counter-test:none')).read).toBeNull();
    expect((await counter.take(`window-counter-test:${randomUUID()}`, WINDOW, 1)).read).toBeUndefined();
  });

  it('counts in the process while Redis is down, and asks Redis again a second later (time moved, not waited)', async () => {
    let now = Date.now();
    const counter = new RedisWindowCounter(redis, () => now);
    const key = `window-counter-test:${randomUUID()}`;
    expect(await counter.take(key, WINDOW, 2)).toMatchObject({ granted: 2, count: 2 });
    await privateRedis.stop();
    // The process's own window, against the same limit; nothing is read alongside.
    const local = await counter.take(key, WINDOW, 4, 'window-counter-test:generation');
    expect(local).toMatchObject({ granted: 4, count: 4 });
    expect(local.read).toBeUndefined();
    expect(await counter.take(key, WINDOW, 4)).toMatchObject({ granted: 1, count: 5 });
    expect(await counter.count(key)).toBe(5);
    await privateRedis.restart();
    while (redis.status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
    // Within the second after the failure Redis is not asked, though it answers.
    now += LOCAL_AFTER_FAILURE_MS - 1;
    expect(await counter.take(key, WINDOW, 1)).toMatchObject({ granted: 0, count: 5 });
    now += 1;
    // Redis restarted empty: its window of the key starts again.
    expect(await counter.take(key, WINDOW, 1)).toMatchObject({ granted: 1, count: 1 });
    expect(await redis.get(key)).toBe('1');
  });
});
