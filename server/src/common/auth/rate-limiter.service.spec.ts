import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig } from '../../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { MemoryWindowCounter } from '../window-counter/drivers/memory.driver.js';
import { RedisWindowCounter } from '../window-counter/drivers/redis.driver.js';
import { RateLimiterService } from './rate-limiter.service.js';

/** Headers a reply received, for asserting on. */
function recordingReply() {
  const headers: Record<string, unknown> = {};
  const reply = { header: (name: string, value: unknown) => ((headers[name] = value), reply) };
  return { reply: reply as unknown as FastifyReply, headers };
}

describe('RateLimiterService (real Redis)', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(loadConfig().redisUrl);
  });

  afterAll(() => redis.quit());

  const config = (points: number) => loadConfig({ ...process.env, RATE_LIMIT_POINTS: String(points), RATE_LIMIT_WINDOW_SECONDS: '60' });
  const limiter = (points: number) => new RateLimiterService(config(points), new RedisWindowCounter(redis));

  it('serves every concurrent request of a key under the limit, though they share one lease', async () => {
    const service = limiter(1000);
    const key = randomUUID();
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => service.consume(key, recordingReply().reply)));
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    expect(Number(await redis.get(`${config(1000).redisPrefix}:ratelimit:${key}`))).toBeGreaterThanOrEqual(50);
    expect(Number(await redis.get(`${config(1000).redisPrefix}:ratelimit:${key}`))).toBeLessThanOrEqual(50 + 10);
  });

  it('refuses past the limit across two processes, with retry-after, and never grants more than the limit', async () => {
    const [a, b] = [limiter(500), limiter(500)];
    const key = randomUUID();
    let served = 0;
    let refusal: ApiError | undefined;
    for (let i = 0; i < 520; i++) {
      try {
        await (i % 2 ? a : b).consume(key, recordingReply().reply);
        served++;
      } catch (error) {
        refusal = error as ApiError;
      }
    }
    expect(served).toBeLessThanOrEqual(500);
    expect(served).toBeGreaterThanOrEqual(500 - 2 * 5);
    expect(refusal?.items[0].code).toBe('too_many_requests');
    expect(Number(refusal?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('reports the limit and what is left of it', async () => {
    const service = limiter(3);
    const key = randomUUID();
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const { reply, headers } = recordingReply();
      await service.consume(key, reply);
      seen.push([headers['x-ratelimit-limit'], headers['x-ratelimit-remaining']]);
    }
    expect(seen).toEqual([
      [3, 2],
      [3, 1],
      [3, 0],
    ]);
  });

  it('serves the key again once its window has passed, and says when in retry-after (time moved, not waited)', async () => {
    let now = Date.parse('2026-03-01T09:00:00Z');
    const service = new RateLimiterService(config(2), new MemoryWindowCounter(() => now));
    const key = randomUUID();
    await service.consume(key, recordingReply().reply);
    now += 20_000;
    await service.consume(key, recordingReply().reply);
    const refusal = await service.consume(key, recordingReply().reply).catch((error: ApiError) => error);
    expect((refusal as ApiError).headers['retry-after']).toBe('40');
    now += 39_999;
    await expect(service.consume(key, recordingReply().reply)).rejects.toBeInstanceOf(ApiError);
    now += 1;
    const { reply, headers } = recordingReply();
    await service.consume(key, reply);
    expect(headers['x-ratelimit-remaining']).toBe(1);
  });
});
