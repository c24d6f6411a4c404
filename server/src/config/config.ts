import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';

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
  /**
   * PostgreSQL reached directly, for what needs a session of its own: LISTEN, migrations, advisory locks. The same as
   * `databaseUrl` unless DATABASE_DIRECT_URL says `databaseUrl` goes through a transaction-mode pooler (PgBouncer).
   */
  databaseDirectUrl: string;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: a Redis Cluster every process connects to instead of REDIS_URL; null for one Redis server. */
  redisCluster: RedisClusterSettings | null;
  /** Prefix of every Redis key, channel and queue of this installation, so several can share one Redis. */
  redisPrefix: string;
  /** Server-side secret mixed into API-key hashes, so a leaked table alone cannot verify keys. */
  apiKeyPepper: string;
  rateLimit: { points: number; windowSeconds: number };
  bodyLimitBytes: number;
  /** Longest time a request (line, headers and body) may take to arrive; past it 408 and the connection closes. */
  requestTimeoutMs: number;
  /**
   * How long a stopping API process lets the requests in flight finish; then it closes the connections still busy (a
   * client that stopped reading, a body still arriving) and completes its shutdown.
   */
  shutdownGraceMs: number;
  /** Fastify `trustProxy`: which proxies may set X-Forwarded-Proto / X-Forwarded-For. */
  trustProxy: boolean | string;
  /** Seconds an authenticated key stays cached in a process; revocations are broadcast and evict at once. */
  authCacheSeconds: number;
  /** Failed authentications allowed per key prefix and per client address in a window, before 429s. */
  authFailures: { limit: number; windowSeconds: number };
  /** Longest wait for a Redis answer; past it (or with Redis down) the API goes on without Redis. */
  redisCommandTimeoutMs: number;
  database: DatabaseSettings;
  /** How many API and worker processes `npm start` runs (the API's share PORT). */
  processes: { api: number; worker: number };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  webhooks: WebhookSettings;
  mail: MailSettings;
  invoices: InvoiceSettings;
  f24: F24Settings;
  /**
   * The hosts integrators call, as the portal shows them (FLUSSO_HOST_DEVELOPMENT, FLUSSO_HOST_PRODUCTION, no trailing
   * slash): the `servers` of the document the API serves, so it names the same hosts as the portal's copy.
   */
  publicHosts: Record<Environment, string>;
  queues: QueueSettings;
  retention: RetentionSettings;
  requestLog: RequestLogSettings;
}

/** The integrators' request log (request-logs/): failed requests written off the request path, in batches. */
export interface RequestLogSettings {
  /** REQUEST_LOG=off records nothing (the list then shows only what was recorded before). */
  enabled: boolean;
  /** How often what the process holds is written, at the latest. */
  flushMs: number;
  /** Most entries a process holds unwritten; past it (PostgreSQL slow or down) new ones are dropped and counted. */
  bufferLimit: number;
}

/** BullMQ consumers of the worker: how soon a job held by a worker that died is taken up by another. */
export interface QueueSettings {
  /** A worker's hold on a job, renewed every half of it while the worker lives. */
  lockDurationMs: number;
  /** How often each worker looks for jobs whose hold has ended (their worker died) and puts them back. */
  stalledIntervalMs: number;
}

/** How long what was sent is kept: the worker removes older rows in small batches (deliveries/retention.ts). */
export interface RetentionSettings {
  /** A delivery that succeeded, with its attempts, from its completion. */
  deliveredMs: number;
  /** A delivery that failed for good, with its attempts, from its completion. */
  failedMs: number;
  /** An event, from its creation, once no delivery of it is kept. */
  eventsMs: number;
}

/** A Redis Cluster: its seed nodes (the client learns the others), and the credentials and TLS every node takes. */
export interface RedisClusterSettings {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

/** F24 forms read from PDF or scans (server/src/f24/). */
export interface F24Settings {
  /** Where uploaded files are kept (F24_STORAGE): in PostgreSQL, in a folder, or an object store (not configured yet). */
  storage: 'database' | 'disk' | 'object';
  /** The folder of the disk driver (F24_STORAGE_DIR). */
  storageDir: string;
  /** Largest file accepted (F24_MAX_BYTES). */
  maxBytes: number;
  /** Whether the worker loads the PDF reader and the OCR's language data at start (F24_WARM_UP), not on the first form. */
  warmUp: boolean;
}

/** E-invoices: the signed links to their XML, and the channel to the SDI. */
export interface InvoiceSettings {
  /** Key of the HMAC that signs links to an invoice's XML; derived from INVOICE_LINK_SECRET. */
  linkKey: Buffer;
  /** How long a signed link to an invoice's XML works. */
  linkTtlSeconds: number;
  /** `sandbox`: the development SDI (invoices/sdi/drivers/sandbox.driver.ts); `production`: the real channel, not configured yet. */
  sdiChannel: 'sandbox' | 'production';
  /** The sandbox's delays: from SENT to the SDI's outcome, and from delivery to a public administration's refusal. */
  sandboxDelaysMs: [number, number];
  /** The XML pool (invoices/fatturapa/xml-pool.ts): child processes that read invoice files off the event loop. */
  xml: {
    /** Child processes reading at once (XML_WORKERS). */
    workers: number;
    /** Longest time one file may take in a child before it is refused as too complex (XML_TIME_BUDGET_MS). */
    timeBudgetMs: number;
    /** Files that may wait for a child; past it 503 (XML_QUEUE_LIMIT). */
    queueLimit: number;
  };
  /**
   * Invoices an API process creates or receives at once (INVOICE_CONCURRENCY, default XML_WORKERS + 1): the others wait in
   * line (invoices/invoice-lane.ts), XML_QUEUE_LIMIT of them at most.
   */
  concurrency: number;
}

/** How the API uses PostgreSQL (the worker and the CLI run without these limits). */
export interface DatabaseSettings {
  /** Pooled connections of one process. */
  poolSize: number;
  /** Longest wait for a free pooled connection before a 503. */
  poolWaitMs: number;
  /** Connections of the pool that one company's requests may hold at once. */
  companyConnections: number;
  /** Longest wait of a request for a place in its company's share (behind that company's own requests) before a 429. */
  companyWaitMs: number;
  /** PostgreSQL `statement_timeout`: a longer statement is cancelled (503). */
  statementTimeoutMs: number;
  /** PostgreSQL `lock_timeout`: a longer wait for a row lock is given up (503). */
  lockTimeoutMs: number;
  /**
   * `databaseUrl` goes through a transaction-mode pooler: a transaction, not a session, is all a connection keeps, so
   * the timeouts are set in each transaction (SET LOCAL) instead of once per connection.
   */
  pooled: boolean;
  /** Named prepared statements (parsed and planned once per connection); off through a pooler that cannot keep them. */
  preparedStatements: boolean;
}

/** How webhooks are signed and sent (see the portal's webhook page). */
export interface WebhookSettings {
  /** Key that encrypts endpoints' signing secrets at rest (AES-256-GCM); derived from WEBHOOK_SECRET_KEY. */
  secretKey: Buffer;
  /** How long one attempt may take, from connecting to the end of the answer's headers. */
  timeoutMs: number;
  /** Waits before each retry, in milliseconds: attempt n+1 comes this long (± jitter) after attempt n failed. */
  retrySchedule: number[];
  /** An endpoint whose every attempt has failed for this long is disabled. */
  disableAfterMs: number;
  /** Attempts one worker keeps in flight at once. */
  concurrency: number;
  /** Development: whether the answers of receivers on loopback addresses are kept and shown with their deliveries. */
  exposeLoopbackResponses: boolean;
}

export interface MailSettings {
  /** SMTP server (`smtp://user:pass@host:587`, `smtps://…`); null writes each message as an .eml file to `outboxDir`. */
  smtpUrl: string | null;
  /** Whether the SMTP_URL credentials may go to a server that offers no TLS; otherwise STARTTLS is required to log in. */
  allowCleartextAuth: boolean;
  from: string;
  outboxDir: string;
  /** Waits between attempts to hand a message to the SMTP server after a temporary refusal or a connection error. */
  retrySchedule: number[];
  /** Longest wait for each step of an SMTP exchange (connecting, the greeting, each reply); an attempt is cut off at twice this. */
  timeoutMs: number;
  /** SMTP connections of one worker, and so messages it sends at once. */
  connections: number;
  /** How long the link to the XML in a courtesy-copy e-mail works. */
  shareLinkTtlSeconds: number;
}

// One core is left to the event loop that answers everyone (bench/xml.mjs: two readers on two cores doubled its p99).
const XML_READERS = Math.max(1, availableParallelism() - 1);

export const DEFAULTS = {
  FLUSSO_ENV: 'development',
  PORT: '3000',
  HOST: '0.0.0.0',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/flusso',
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_PREFIX: 'flusso',
  API_KEY_PEPPER: 'flusso-development-pepper',
  RATE_LIMIT_POINTS: '600',
  RATE_LIMIT_WINDOW_SECONDS: '60',
  BODY_LIMIT_BYTES: '1048576',
  REQUEST_TIMEOUT_MS: '30000',
  SHUTDOWN_GRACE_MS: '25000',
  TRUST_PROXY: 'loopback',
  AUTH_CACHE_SECONDS: '30',
  AUTH_FAILURE_LIMIT: '20',
  AUTH_FAILURE_WINDOW_SECONDS: '60',
  REDIS_COMMAND_TIMEOUT_MS: '500',
  DB_POOL_SIZE: '10',
  DB_POOL_WAIT_MS: '1000',
  DB_COMPANY_CONNECTIONS: '5',
  DB_COMPANY_WAIT_MS: '10000',
  DB_STATEMENT_TIMEOUT_MS: '15000',
  DB_LOCK_TIMEOUT_MS: '3000',
  DB_PREPARED_STATEMENTS: 'auto',
  LOG_LEVEL: 'info',
  API_PROCESSES: '1',
  WORKER_PROCESSES: '1',
  WEBHOOK_SECRET_KEY: 'flusso-development-webhook-secret-key',
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_RETRY_SCHEDULE: '5s,5m,30m,2h,5h,10h,14h,20h,24h',
  WEBHOOK_DISABLE_AFTER_HOURS: '120',
  WEBHOOK_CONCURRENCY: '256',
  WEBHOOK_EXPOSE_LOOPBACK_RESPONSES: 'false',
  SMTP_ALLOW_CLEARTEXT_AUTH: 'false',
  MAIL_FROM: 'Flusso <no-reply@flusso.example>',
  MAIL_OUTBOX_DIR: 'var/mail',
  INVOICE_LINK_SECRET: 'flusso-development-invoice-link-secret',
  INVOICE_LINK_TTL_SECONDS: '900',
  SDI_SANDBOX_DELAYS: '5s,30s',
  XML_WORKERS: String(XML_READERS),
  XML_TIME_BUDGET_MS: '10000',
  XML_QUEUE_LIMIT: '16',
  // Unset, XML_WORKERS + 1 (invoiceSettings: this value is that of an unset XML_WORKERS): an invoice being read by each
  // reader, one more being written.
  INVOICE_CONCURRENCY: String(XML_READERS + 1),
  MAIL_RETRY_SCHEDULE: '1m,5m,15m,1h,3h,6h,12h',
  SHARE_LINK_TTL_DAYS: '30',
  FLUSSO_HOST_DEVELOPMENT: 'https://api.sandbox.flusso.example',
  FLUSSO_HOST_PRODUCTION: 'https://api.flusso.example',
  MAIL_TIMEOUT_MS: '15000',
  MAIL_CONNECTIONS: '5',
  QUEUE_LOCK_DURATION_MS: '10000',
  QUEUE_STALLED_INTERVAL_MS: '5000',
  RETENTION_DELIVERED_DAYS: '30',
  RETENTION_FAILED_DAYS: '90',
  RETENTION_EVENTS_DAYS: '90',
  REQUEST_LOG: 'on',
  REQUEST_LOG_FLUSH_MS: '1000',
  REQUEST_LOG_BUFFER: '10000',
  F24_STORAGE: 'database',
  F24_STORAGE_DIR: 'var/f24',
  F24_MAX_BYTES: '10485760',
  F24_WARM_UP: 'true',
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

function redisPrefix(raw: string): string {
  if (!/^[A-Za-z0-9_.-]{1,40}$/.test(raw)) throw new ConfigError(`REDIS_PREFIX must be 1 to 40 letters, digits, dots, dashes or underscores, got "${raw}"`);
  return raw;
}

/** A connection URL of one of `protocols`; the value is not echoed back, as it may carry a password. */
function serviceUrl(env: NodeJS.ProcessEnv, name: 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'REDIS_URL', protocols: readonly string[]): string {
  const example = DEFAULTS[name === 'DATABASE_DIRECT_URL' ? 'DATABASE_URL' : name];
  const raw = env[name] || example;
  if (!URL.canParse(raw) || !protocols.includes(new URL(raw).protocol)) {
    throw new ConfigError(`${name} must be a ${protocols.map((protocol) => `${protocol}//`).join(' or ')} URL such as ${example}`);
  }
  return raw;
}

/**
 * REDIS_CLUSTER_NODES: `host:port` seeds separated by commas, or `redis://` / `rediss://` URLs whose user, password and
 * scheme (TLS) apply to every node. Values are not echoed back, as they may carry a password.
 */
function redisCluster(raw: string | undefined): RedisClusterSettings | null {
  if (!raw?.trim()) return null;
  const invalid = () =>
    new ConfigError('REDIS_CLUSTER_NODES must be host:port (or redis:// or rediss:// URLs) separated by commas, such as 10.0.0.1:6379,10.0.0.2:6379');
  const urls = raw.split(',').map((entry) => {
    const text = entry.trim();
    const url = URL.canParse(text.includes('://') ? text : `redis://${text}`) ? new URL(text.includes('://') ? text : `redis://${text}`) : null;
    if (!url || !['redis:', 'rediss:'].includes(url.protocol) || !url.hostname || !url.port || (url.pathname !== '' && url.pathname !== '/')) throw invalid();
    return url;
  });
  const first = urls[0];
  if (urls.some((url) => url.protocol !== first.protocol))
    throw new ConfigError('REDIS_CLUSTER_NODES must use one scheme for every node (redis:// or rediss://)');
  return {
    nodes: urls.map((url) => ({ host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) })),
    username: first.username ? decodeURIComponent(first.username) : undefined,
    password: first.password ? decodeURIComponent(first.password) : undefined,
    tls: first.protocol === 'rediss:',
  };
}

/** A host integrators call, as the portal reads it: unset or empty is the default; an http(s) URL, no trailing slash. */
function publicHost(env: NodeJS.ProcessEnv, name: 'FLUSSO_HOST_DEVELOPMENT' | 'FLUSSO_HOST_PRODUCTION'): string {
  const raw = (env[name] || DEFAULTS[name]).replace(/\/+$/, '');
  if (!URL.canParse(raw) || !['http:', 'https:'].includes(new URL(raw).protocol)) {
    throw new ConfigError(`${name} must be an http:// or https:// URL such as ${DEFAULTS[name]}`);
  }
  return raw;
}

function trustProxy(raw: string): boolean | string {
  if (raw === 'true') return true;
  if (raw === 'false' || raw === '') return false;
  return raw;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A comma-separated list of durations such as `5s,5m,2h,1d` (units ms, s, m, h, d), in milliseconds. */
export function parseSchedule(raw: string, name = 'WEBHOOK_RETRY_SCHEDULE'): number[] {
  const steps = raw.split(',').map((step) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(step);
    if (!match) throw new ConfigError(`${name} must be durations such as 5s,5m,2h,1d separated by commas, got "${raw}"`);
    return Number(match[1]) * DURATION_UNITS[match[2]];
  });
  if (steps.length > 50) throw new ConfigError(`${name} may hold at most 50 retries, got ${steps.length}`);
  return steps;
}

function databaseSettings(env: NodeJS.ProcessEnv, pooled: boolean): DatabaseSettings {
  const poolSize = integer(env, 'DB_POOL_SIZE', 1, 1000);
  const companyConnections = integer(env, 'DB_COMPANY_CONNECTIONS', 1, 1000);
  if (companyConnections > poolSize) {
    throw new ConfigError(`DB_COMPANY_CONNECTIONS (${companyConnections}) must not exceed DB_POOL_SIZE (${poolSize})`);
  }
  return {
    poolSize,
    poolWaitMs: integer(env, 'DB_POOL_WAIT_MS', 10, 60_000),
    companyConnections,
    companyWaitMs: integer(env, 'DB_COMPANY_WAIT_MS', 10, 600_000),
    statementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 0, 3_600_000),
    lockTimeoutMs: integer(env, 'DB_LOCK_TIMEOUT_MS', 0, 3_600_000),
    pooled,
    // PgBouncer before 1.21 in transaction mode hands a named statement's next use to a server connection that never
    // prepared it; `auto` turns them off whenever a direct URL says DATABASE_URL is a pooler.
    preparedStatements: { auto: !pooled, true: true, false: false }[oneOf(env, 'DB_PREPARED_STATEMENTS', ['auto', 'true', 'false'] as const)],
  };
}

function webhookSettings(env: NodeJS.ProcessEnv, environment: Environment): WebhookSettings {
  const secretKey = env.WEBHOOK_SECRET_KEY ?? DEFAULTS.WEBHOOK_SECRET_KEY;
  if (environment === 'production' && secretKey === DEFAULTS.WEBHOOK_SECRET_KEY) {
    throw new ConfigError('WEBHOOK_SECRET_KEY must be set to a secret value when FLUSSO_ENV=production');
  }
  return {
    secretKey: createHash('sha256').update(secretKey).digest(),
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 100, 60_000),
    retrySchedule: parseSchedule(env.WEBHOOK_RETRY_SCHEDULE ?? DEFAULTS.WEBHOOK_RETRY_SCHEDULE),
    disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 1, 24 * 365) * 3_600_000,
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 1, 10_000),
    exposeLoopbackResponses: oneOf(env, 'WEBHOOK_EXPOSE_LOOPBACK_RESPONSES', ['true', 'false'] as const) === 'true',
  };
}

function invoiceSettings(env: NodeJS.ProcessEnv, environment: Environment): InvoiceSettings {
  const secret = env.INVOICE_LINK_SECRET ?? DEFAULTS.INVOICE_LINK_SECRET;
  if (environment === 'production' && secret === DEFAULTS.INVOICE_LINK_SECRET) {
    throw new ConfigError('INVOICE_LINK_SECRET must be set to a secret value when FLUSSO_ENV=production');
  }
  const channel = env.SDI_CHANNEL ?? (environment === 'production' ? 'production' : 'sandbox');
  if (channel !== 'sandbox' && channel !== 'production') throw new ConfigError(`SDI_CHANNEL must be sandbox or production, got "${channel}"`);
  if (environment === 'production' && channel === 'sandbox') throw new ConfigError('SDI_CHANNEL=sandbox is for development: production sends to the real SDI');
  const delays = parseSchedule(env.SDI_SANDBOX_DELAYS ?? DEFAULTS.SDI_SANDBOX_DELAYS, 'SDI_SANDBOX_DELAYS');
  if (delays.length !== 2) throw new ConfigError(`SDI_SANDBOX_DELAYS must be two durations (to the outcome, to a refusal), got "${env.SDI_SANDBOX_DELAYS}"`);
  const workers = integer(env, 'XML_WORKERS', 1, 64);
  return {
    linkKey: createHash('sha256').update(secret).digest(),
    linkTtlSeconds: integer(env, 'INVOICE_LINK_TTL_SECONDS', 1, 7 * 86_400),
    sdiChannel: channel,
    sandboxDelaysMs: [delays[0], delays[1]],
    xml: {
      workers,
      timeBudgetMs: integer(env, 'XML_TIME_BUDGET_MS', 100, 600_000),
      queueLimit: integer(env, 'XML_QUEUE_LIMIT', 1, 10_000),
    },
    concurrency: env.INVOICE_CONCURRENCY === undefined ? workers + 1 : integer(env, 'INVOICE_CONCURRENCY', 1, 1024),
  };
}

function queueSettings(env: NodeJS.ProcessEnv): QueueSettings {
  const lockDurationMs = integer(env, 'QUEUE_LOCK_DURATION_MS', 1000, 600_000);
  const stalledIntervalMs = integer(env, 'QUEUE_STALLED_INTERVAL_MS', 500, 600_000);
  return { lockDurationMs, stalledIntervalMs };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const environment = oneOf(env, 'FLUSSO_ENV', ['development', 'production'] as const);
  const apiKeyPepper = env.API_KEY_PEPPER ?? DEFAULTS.API_KEY_PEPPER;
  if (environment === 'production' && apiKeyPepper === DEFAULTS.API_KEY_PEPPER) {
    throw new ConfigError('API_KEY_PEPPER must be set to a secret value when FLUSSO_ENV=production');
  }
  const databaseUrl = serviceUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const databaseDirectUrl = env.DATABASE_DIRECT_URL ? serviceUrl(env, 'DATABASE_DIRECT_URL', ['postgres:', 'postgresql:']) : databaseUrl;
  return {
    environment,
    port: integer(env, 'PORT', 0, 65535),
    host: env.HOST ?? DEFAULTS.HOST,
    databaseUrl,
    databaseDirectUrl,
    redisUrl: serviceUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisCluster: redisCluster(env.REDIS_CLUSTER_NODES),
    redisPrefix: redisPrefix(env.REDIS_PREFIX ?? DEFAULTS.REDIS_PREFIX),
    apiKeyPepper,
    rateLimit: {
      points: integer(env, 'RATE_LIMIT_POINTS', 1, 10_000_000),
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 1, 86_400),
    },
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024, 100 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 100, 600_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 0, 600_000),
    trustProxy: trustProxy(env.TRUST_PROXY ?? DEFAULTS.TRUST_PROXY),
    authCacheSeconds: integer(env, 'AUTH_CACHE_SECONDS', 0, 3600),
    authFailures: { limit: integer(env, 'AUTH_FAILURE_LIMIT', 1, 1_000_000), windowSeconds: integer(env, 'AUTH_FAILURE_WINDOW_SECONDS', 1, 86_400) },
    redisCommandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', 10, 60_000),
    database: databaseSettings(env, databaseDirectUrl !== databaseUrl),
    processes: { api: integer(env, 'API_PROCESSES', 1, 256), worker: integer(env, 'WORKER_PROCESSES', 0, 256) },
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const),
    webhooks: webhookSettings(env, environment),
    invoices: invoiceSettings(env, environment),
    f24: {
      storage: oneOf(env, 'F24_STORAGE', ['database', 'disk', 'object'] as const),
      storageDir: env.F24_STORAGE_DIR ?? DEFAULTS.F24_STORAGE_DIR,
      maxBytes: integer(env, 'F24_MAX_BYTES', 1024, 50 * 1024 * 1024),
      warmUp: oneOf(env, 'F24_WARM_UP', ['true', 'false'] as const) === 'true',
    },
    mail: {
      smtpUrl: env.SMTP_URL || null,
      allowCleartextAuth: oneOf(env, 'SMTP_ALLOW_CLEARTEXT_AUTH', ['true', 'false'] as const) === 'true',
      from: env.MAIL_FROM ?? DEFAULTS.MAIL_FROM,
      outboxDir: env.MAIL_OUTBOX_DIR ?? DEFAULTS.MAIL_OUTBOX_DIR,
      retrySchedule: parseSchedule(env.MAIL_RETRY_SCHEDULE ?? DEFAULTS.MAIL_RETRY_SCHEDULE, 'MAIL_RETRY_SCHEDULE'),
      shareLinkTtlSeconds: integer(env, 'SHARE_LINK_TTL_DAYS', 1, 365) * 86_400,
      timeoutMs: integer(env, 'MAIL_TIMEOUT_MS', 100, 300_000),
      connections: integer(env, 'MAIL_CONNECTIONS', 1, 100),
    },
    queues: queueSettings(env),
    retention: {
      deliveredMs: integer(env, 'RETENTION_DELIVERED_DAYS', 1, 3650) * 86_400_000,
      failedMs: integer(env, 'RETENTION_FAILED_DAYS', 1, 3650) * 86_400_000,
      eventsMs: integer(env, 'RETENTION_EVENTS_DAYS', 1, 3650) * 86_400_000,
    },
    requestLog: {
      enabled: oneOf(env, 'REQUEST_LOG', ['on', 'off'] as const) === 'on',
      flushMs: integer(env, 'REQUEST_LOG_FLUSH_MS', 10, 60_000),
      bufferLimit: integer(env, 'REQUEST_LOG_BUFFER', 1, 1_000_000),
    },
    publicHosts: {
      development: publicHost(env, 'FLUSSO_HOST_DEVELOPMENT'),
      production: publicHost(env, 'FLUSSO_HOST_PRODUCTION'),
    },
  };
}

/** Injection token for the configuration object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
