import type { RedisClient } from '../redis/redis-client.js';

/** Redis channel on which a revoked key or a changed grant is announced to every API process. */
export const authInvalidationChannel = (redisPrefix: string): string => `${redisPrefix}:auth:invalidate`;

/**
 * Redis key of the installation's auth generation, a counter every invalidation increments. API processes read it
 * with each rate-limit lease and drop their cached keys when it has changed, so an announcement they missed (their
 * subscription was down, Redis restarted) still reaches them within a lease.
 */
export const authGenerationKey = (redisPrefix: string): string => `${redisPrefix}:auth:generation`;

const INVALIDATE_SCRIPT = `
local generation = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], generation)
return generation`;

/** Tells every API process to drop its cached keys and grants. */
export type AuthInvalidation = () => Promise<void>;

/** The one way to invalidate cached authentication: bump the generation and announce it, in one step. */
export function redisAuthInvalidation(redis: Pick<RedisClient, 'eval'>, redisPrefix: string): AuthInvalidation {
  return async () => {
    await redis.eval(INVALIDATE_SCRIPT, 1, authGenerationKey(redisPrefix), authInvalidationChannel(redisPrefix));
  };
}
