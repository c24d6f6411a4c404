/**
 * Typed configuration, read once from the environment and validated at start. Every variable has a default that
 * works on a developer machine (local PostgreSQL and Redis); production deployments override them.
 */
export type Environment = 'development' | 'production';

export interface AppConfig {
  /** Which API environment this process serves; keys of the other environment are refused. */
  environment: Environment;
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  /** Server-side secret mixed into API-key hashes, so a leaked table alone cannot verify keys. */
  apiKeyPepper: string;
  rateLimit: { points: number; windowSeconds: number };
  bodyLimitBytes: number;
  /** Fastify `trustProxy`: which proxies may set X-Forwarded-Proto / X-Forwarded-For. */
  trustProxy: boolean | string;
  /** Seconds an authenticated key stays cached in a process; revocations are broadcast and evict at once. */
  authCacheSeconds: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export const DEFAULTS = {
  FLUSSO_ENV: 'development',
  PORT: '3000',
  HOST: '0.0.0.0',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/flusso',
  REDIS_URL: 'redis://127.0.0.1:6379',
  API_KEY_PEPPER: 'flusso-development-pepper',
  RATE_LIMIT_POINTS: '600',
  RATE_LIMIT_WINDOW_SECONDS: '60',
  BODY_LIMIT_BYTES: '1048576',
  TRUST_PROXY: 'loopback',
  AUTH_CACHE_SECONDS: '30',
  LOG_LEVEL: 'warn',
} as const;

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: keyof typeof DEFAULTS, min: number, max: number): number {
  const raw = env[name] ?? DEFAULTS[name];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: keyof typeof DEFAULTS, allowed: readonly T[]): T {
  const raw = env[name] ?? DEFAULTS[name];
  if (!allowed.includes(raw as T)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function trustProxy(raw: string): boolean | string {
  if (raw === 'true') return true;
  if (raw === 'false' || raw === '') return false;
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const environment = oneOf(env, 'FLUSSO_ENV', ['development', 'production'] as const);
  const apiKeyPepper = env.API_KEY_PEPPER ?? DEFAULTS.API_KEY_PEPPER;
  if (environment === 'production' && apiKeyPepper === DEFAULTS.API_KEY_PEPPER) {
    throw new ConfigError('API_KEY_PEPPER must be set to a secret value when FLUSSO_ENV=production');
  }
  return {
    environment,
    port: integer(env, 'PORT', 0, 65535),
    host: env.HOST ?? DEFAULTS.HOST,
    databaseUrl: env.DATABASE_URL ?? DEFAULTS.DATABASE_URL,
    redisUrl: env.REDIS_URL ?? DEFAULTS.REDIS_URL,
    apiKeyPepper,
    rateLimit: {
      points: integer(env, 'RATE_LIMIT_POINTS', 1, 10_000_000),
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 1, 86_400),
    },
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024, 100 * 1024 * 1024),
    trustProxy: trustProxy(env.TRUST_PROXY ?? DEFAULTS.TRUST_PROXY),
    authCacheSeconds: integer(env, 'AUTH_CACHE_SECONDS', 0, 3600),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const),
  };
}

/** Injection token for the configuration object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
