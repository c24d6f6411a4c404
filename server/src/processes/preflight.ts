import pg from 'pg';
import { createRedis, describeRedis, type RedisTarget } from '../common/redis/redis-client.js';
import { ServiceUnavailableError } from '../config/run-main.js';

function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (parsed.protocol.startsWith('redis') ? 6379 : 5432)}`;
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

const HOW_TO_START_POSTGRES =
  "start it with 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start' " +
  "or 'docker compose -f docker/compose.yml up -d postgres', or set DATABASE_URL";
const HOW_TO_START_REDIS =
  'start it with \'redis-server --daemonize yes --port 6379 --save "" --appendonly no\' ' +
  "or 'docker compose -f docker/compose.yml up -d redis', or set REDIS_URL";

export async function checkPostgres(databaseUrl: string, options: { createDatabase: boolean; variable?: string }): Promise<void> {
  const variable = options.variable ?? 'DATABASE_URL';
  const connect = async (url: string) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    return client;
  };
  try {
    const client = await connect(databaseUrl);
    await client.end();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '3D000' && options.createDatabase) {
      const target = new URL(databaseUrl);
      const name = decodeURIComponent(target.pathname.slice(1));
      const admin = new URL(databaseUrl);
      admin.pathname = '/postgres';
      const client = await connect(admin.toString());
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } catch (creating) {
        // Another process starting at the same time created it first: 42P04, or a unique violation of pg_database
        // when both got past the existence check together.
        const raced = (creating as { code?: string }).code;
        if (raced !== '42P04' && raced !== '23505') throw creating;
      } finally {
        await client.end();
      }
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    // PostgreSQL answered: starting it again would not help, creating the database does.
    if (code === '3D000') {
      throw new ServiceUnavailableError(
        `PostgreSQL at ${where(databaseUrl)} has no such database (${variable}=${redact(databaseUrl)}: ${reason}); create it with 'npm run cli -- migrate', or set ${variable}.`,
      );
    }
    throw new ServiceUnavailableError(
      `PostgreSQL is not reachable at ${where(databaseUrl)} (${variable}=${redact(databaseUrl)}: ${reason}); ${HOW_TO_START_POSTGRES}.`,
    );
  }
}

export async function checkRedis(target: RedisTarget): Promise<void> {
  const redis = createRedis(target, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  const how = target.redisCluster ? 'start its nodes, or set REDIS_CLUSTER_NODES' : HOW_TO_START_REDIS;
  try {
    await withTimeout(redis.connect(), 5000);
    await redis.ping();
    if (target.redisCluster) {
      // The client connects as soon as it has the slot map; a cluster missing a master answers CLUSTERDOWN to every key.
      const info = String(await redis.cluster('INFO'));
      const state = /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
      if (state !== 'ok') throw new Error(`cluster_state is ${state}`);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const what = target.redisCluster ? 'The Redis Cluster is not usable' : `Redis is not reachable at ${where(target.redisUrl)}`;
    throw new ServiceUnavailableError(`${what} (${describeRedis(target)}: ${reason || 'connection refused'}); ${how}.`);
  } finally {
    redis.disconnect();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Checks, before anything starts, that PostgreSQL and Redis answer, and says in one line which one does not, where
 * it was looked for and how to start it. In development it also creates the database when it is missing.
 * With a pooler (DATABASE_DIRECT_URL set apart), PostgreSQL itself is checked first, and creates the database: a
 * pooler would only say that it could not log in.
 */
export async function preflight(config: { databaseUrl: string; databaseDirectUrl?: string } & RedisTarget, createDatabase = true): Promise<void> {
  const direct = config.databaseDirectUrl ?? config.databaseUrl;
  if (direct !== config.databaseUrl) await checkPostgres(direct, { createDatabase, variable: 'DATABASE_DIRECT_URL' });
  await checkPostgres(config.databaseUrl, { createDatabase: createDatabase && direct === config.databaseUrl });
  await checkRedis(config);
}
