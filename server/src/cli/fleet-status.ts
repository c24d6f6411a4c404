import { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { DatabaseRepository, type DatabaseConnections } from '../common/database/database.repository.js';
import { withQueueTimeout } from '../common/events/outbox-loop.js';
import { createRedis, queuePrefix } from '../common/redis/redis-client.js';
import type { AppConfig } from '../config/config.js';
import { DeliveriesRepository, type DeliveryBacklog } from '../deliveries/deliveries.repository.js';
import { F24_QUEUE } from '../f24/f24-dispatcher.js';
import { SDI_QUEUE } from '../invoices/sdi/sdi-channel.port.js';
import { SdiRepository } from '../invoices/sdi/sdi.repository.js';
import { WebhookEndpointsRepository } from '../webhooks/webhook-endpoints.repository.js';

/** When each figure asks for attention (README "What to monitor"). */
const ATTENTION = {
  /** Events wait for the fan-out this long at most while a worker runs (it is woken as they commit). */
  outboxSeconds: 60,
  /** A delivery due this long ago and not taken by any worker. */
  overdueSeconds: 60,
  /** Failed deliveries are counted over this window. */
  failedHours: 24,
  /** An e-invoice issued this long ago and not yet taken by the SDI. */
  sdiSeconds: 15 * 60,
  /** PostgreSQL's connections in use, as a share of `max_connections`. */
  connectionsShare: 0.8,
} as const;

const QUEUES = [SDI_QUEUE, F24_QUEUE];
const JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
type JobCounts = Record<(typeof JOB_STATES)[number], number>;

/** The installation's state as an operator watches it: the figures, and what among them asks for attention. */
export interface FleetStatus {
  outbox: { events_waiting: number; oldest_waiting_since: string | null };
  deliveries: Array<{ channel: string; pending: number; overdue: number; failed_last_24_hours: number }>;
  webhook_endpoints_disabled: Record<string, number>;
  e_invoices_waiting_for_sdi: { count: number; oldest_since: string | null };
  /** BullMQ's job counts per queue; null when Redis did not answer. */
  queues: Record<string, JobCounts> | null;
  database: { connections: Array<{ application: string; connections: number }>; max_connections: number };
  attention: string[];
}

/** Reads every figure at once: PostgreSQL's directly, the queues' from Redis within the queue timeout. */
export async function fleetStatus(db: DataSource, config: AppConfig, now: Date): Promise<FleetStatus> {
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const [backlog, disabled, sdi, connections, queues] = await Promise.all([
    new DeliveriesRepository(db).backlog(ago(ATTENTION.overdueSeconds), ago(ATTENTION.failedHours * 3600)),
    new WebhookEndpointsRepository(db).disabledByReason(),
    new SdiRepository(db).waitingTransmissions(),
    new DatabaseRepository(db).connections(),
    queueCounts(config),
  ]);
  return {
    outbox: { events_waiting: backlog.events.waiting, oldest_waiting_since: backlog.events.oldest?.toISOString() ?? null },
    deliveries: backlog.channels.map(({ channel, pending, overdue, failed }) => ({ channel, pending, overdue, failed_last_24_hours: failed })),
    webhook_endpoints_disabled: Object.fromEntries(disabled.map(({ reason, endpoints }) => [reason, endpoints])),
    e_invoices_waiting_for_sdi: { count: sdi.waiting, oldest_since: sdi.oldest?.toISOString() ?? null },
    queues,
    database: { connections: connections.byApplication, max_connections: connections.maxConnections },
    attention: attention(now, backlog, disabled, sdi, connections, queues),
  };
}

function attention(
  now: Date,
  backlog: DeliveryBacklog,
  disabled: Array<{ reason: string; endpoints: number }>,
  sdi: { waiting: number; oldest: Date | null },
  connections: DatabaseConnections,
  queues: Record<string, JobCounts> | null,
): string[] {
  const lines: string[] = [];
  const age = (since: Date) => Math.round((now.getTime() - since.getTime()) / 1000);
  const { waiting, oldest } = backlog.events;
  if (oldest && age(oldest) > ATTENTION.outboxSeconds) {
    lines.push(`${waiting} event(s) not yet fanned out, the oldest for ${age(oldest)} s: is a worker running?`);
  }
  for (const { channel, overdue, failed } of backlog.channels) {
    if (overdue) lines.push(`${overdue} ${channel} deliveries due over ${ATTENTION.overdueSeconds} s ago and taken by no worker`);
    if (failed) lines.push(`${failed} ${channel} deliveries failed for good in the last ${ATTENTION.failedHours} hours`);
  }
  const byFlusso = disabled.filter(({ reason }) => reason !== 'requested');
  if (byFlusso.length) {
    lines.push(`webhook endpoints disabled by Flusso: ${byFlusso.map(({ reason, endpoints }) => `${endpoints} ${reason}`).join(', ')}`);
  }
  if (sdi.oldest && age(sdi.oldest) > ATTENTION.sdiSeconds) {
    lines.push(`${sdi.waiting} e-invoice(s) still CREATED, the oldest issued ${age(sdi.oldest)} s ago: is the SDI channel working?`);
  }
  const used = connections.byApplication.reduce((sum, { connections: n }) => sum + n, 0);
  if (used > connections.maxConnections * ATTENTION.connectionsShare) {
    lines.push(`PostgreSQL connections: ${used} of max_connections ${connections.maxConnections}`);
  }
  if (!queues) lines.push('Redis did not answer: the queues could not be read');
  for (const [name, counts] of Object.entries(queues ?? {})) if (counts.failed) lines.push(`${counts.failed} failed job(s) in the ${name} queue`);
  return lines;
}

/** Each queue's job counts, read with a client of its own that gives up at once; null when Redis does not answer. */
async function queueCounts(config: AppConfig): Promise<Record<string, JobCounts> | null> {
  const redis = createRedis(config, { maxRetriesPerRequest: 0, connectTimeout: 3000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  const queues = QUEUES.map((name) => new Queue(name, { connection: redis, prefix: queuePrefix(config) }));
  for (const queue of queues) queue.on('error', () => undefined);
  try {
    const counts = await withQueueTimeout(Promise.all(queues.map((queue) => queue.getJobCounts(...JOB_STATES))), 'reading the queues');
    return Object.fromEntries(QUEUES.map((name, i) => [name, Object.fromEntries(JOB_STATES.map((state) => [state, counts[i][state] ?? 0])) as JobCounts]));
  } catch {
    return null;
  } finally {
    // The client is the queues' own (shared with them, so they leave it open): closed here, whether Redis answered or not.
    redis.disconnect();
  }
}
