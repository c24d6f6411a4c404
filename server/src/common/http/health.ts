import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { LIVENESS_PATH, READINESS_PATH } from '../../config/api-version.js';
import { CLOCK, type Clock } from '../clock/clock.port.js';
import { ApiError } from '../errors/api-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/error-response.js';
import { sendError } from '../errors/send-error.js';
import { REDIS } from '../redis/redis.module.js';
import type { RedisClient } from '../redis/redis-client.js';
import { GracefulShutdown } from './graceful-shutdown.js';
import { DatabaseRepository } from '../database/database.repository.js';

/** How long a probe waits for PostgreSQL (or Redis) before it says unavailable: probes time out at a few seconds. */
export const READY_CHECK_TIMEOUT_MS = 2000;
/** How long a check's result answers the probes that follow it: a flood of probes costs one query per interval. */
const CHECK_FRESH_MS = 1000;

type Status = 'ok' | 'unavailable';

/** A dependency's check: one at a time, its result reused while fresh, and never waited for longer than the timeout. */
class Check {
  private running?: Promise<Status>;
  private last?: { status: Status; at: number };

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly clock: Clock,
  ) {}

  async status(): Promise<Status> {
    if (this.last && this.clock.now().getTime() - this.last.at < CHECK_FRESH_MS) return this.last.status;
    // A check still running (a database that does not answer) is waited on again, not doubled.
    this.running ??= this.run().then(
      () => this.settle('ok'),
      () => this.settle('unavailable'),
    );
    let cancel = (): void => undefined;
    const late = new Promise<Status>((resolve) => (cancel = this.clock.setTimer(READY_CHECK_TIMEOUT_MS, () => resolve('unavailable'))));
    try {
      return await Promise.race([this.running, late]);
    } finally {
      cancel();
    }
  }

  private settle(status: Status): Status {
    this.last = { status, at: this.clock.now().getTime() };
    this.running = undefined;
    return status;
  }
}

export type Readiness = { status: 'ready' | 'unavailable'; checks: { database: Status; redis: Status } } | { status: 'stopping' };

/**
 * Whether this API process can serve: not stopping, and PostgreSQL answers. Redis is reported but not required:
 * without it the API serves on (rate limits counted per process, keys checked in the database), and taking every
 * process out of a load balancer for it would turn a degraded service into none.
 */
@Injectable()
export class HealthChecks {
  private readonly database: Check;
  private readonly redis: Check;

  constructor(
    database: DatabaseRepository,
    @Inject(REDIS) redis: RedisClient,
    private readonly shutdown: GracefulShutdown,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.database = new Check(() => database.ping(), clock);
    this.redis = new Check(() => redis.ping(), clock);
  }

  /** Ready, with what each dependency answered; or why not (a stopping process asks nothing: its pools are closing). */
  async readiness(): Promise<Readiness> {
    if (this.shutdown.stopping) return { status: 'stopping' };
    const [database, redis] = await Promise.all([this.database.status(), this.redis.status()]);
    return { status: database === 'ok' ? 'ready' : 'unavailable', checks: { database, redis } };
  }
}

/**
 * GET (and HEAD) /healthz, liveness: 200 while the process answers at all. GET /readyz, readiness: 200 with what each
 * dependency answered while the process can serve; 503 service_unavailable (the integration error, as every error
 * answer of this API) while it cannot or is stopping, so that traffic goes elsewhere, a rolling deploy's included.
 * Neither needs a key nor HTTPS (probes come from inside, to the process itself), and neither leaves an access line
 * when all is well: a load balancer probes every few seconds.
 */
export function registerHealth(fastify: FastifyInstance, checks: HealthChecks): void {
  const config = { public: true, probe: true };
  fastify.get(LIVENESS_PATH, { config }, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  fastify.get(READINESS_PATH, { config }, async (request, reply) => {
    const readiness = await checks.readiness();
    reply.header('cache-control', 'no-store');
    if (readiness.status === 'ready') return reply.send(readiness);
    const detail =
      readiness.status === 'stopping' ? 'This API process is stopping; send requests to another.' : 'This API process cannot reach its database (PostgreSQL).';
    sendError(request, reply, ApiError.of('service_unavailable', detail, undefined, { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) }));
    return reply;
  });
}

/** Whether a request is a health probe (registerHealth's routes). */
export const isProbe = (routeConfig: unknown): boolean => (routeConfig as { probe?: boolean } | undefined)?.probe === true;
