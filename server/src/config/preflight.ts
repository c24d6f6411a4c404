import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Checks, before anything starts, that PostgreSQL and Redis answer, and says in one line which one does not, where
 * it was looked for and how to start it. In development it also creates the database when it is missing.
 */
export class ServiceUnavailableError extends Error {}

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

export async function checkRedis(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceUnavailableError(
      `Redis is not reachable at ${where(redisUrl)} (REDIS_URL=${redact(redisUrl)}: ${reason || 'connection refused'}); ${HOW_TO_START_REDIS}.`,
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * With a pooler (DATABASE_DIRECT_URL set apart), PostgreSQL itself is checked first, and creates the database: a
 * pooler would only say that it could not log in.
 */
export async function preflight(config: { databaseUrl: string; databaseDirectUrl?: string; redisUrl: string }, createDatabase = true): Promise<void> {
  const direct = config.databaseDirectUrl ?? config.databaseUrl;
  if (direct !== config.databaseUrl) await checkPostgres(direct, { createDatabase, variable: 'DATABASE_DIRECT_URL' });
  await checkPostgres(config.databaseUrl, { createDatabase: createDatabase && direct === config.databaseUrl });
  await checkRedis(config.redisUrl);
}
