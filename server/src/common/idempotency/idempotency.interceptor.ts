import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Observable, of } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth-context.js';
import { ApiError } from '../errors/api-error.js';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf, REPLAYED_HEADERS, requestFingerprint } from './idempotency-key.js';
import { IdempotencyService, type StoredAnswer } from './idempotency.service.js';

/** The claim a request holds on its key, until its answer is sent. */
const CLAIM = Symbol('idempotency claim');
type ClaimingRequest = FastifyRequest & { [CLAIM]?: string };

/**
 * `Idempotency-Key` for every POST of the API, bound once to all POST routes (interceptRoutes in createApi): it runs
 * after the guards (the key's scope is the caller's integrator, environment and company) and before the body is validated.
 * A new key is claimed and the request runs; the answer it sends is stored by the hook in registerIdempotency(). A key
 * already answered replays that answer; a key in use by a running request is a 409, a key used for another request
 * a 422. Requests refused before they reach a route (unparseable body, 401, 403, 429) never touch the key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly keys: IdempotencyService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest & ClaimingRequest>();
    if (request.method !== 'POST' || !request.auth) return next.handle();
    const key = idempotencyKeyOf(request.headers);
    if (key === undefined) return next.handle();
    const companyId = (request.params as Record<string, string> | undefined)?.company_id;
    const claim = await this.keys.claim(
      { integratorId: request.auth.integratorId, environment: request.auth.environment, companyId: companyId?.toLowerCase() ?? null },
      key,
      requestFingerprint(request.method, request.url, request.body),
    );
    switch (claim.outcome) {
      case 'claimed':
        request[CLAIM] = claim.id;
        return next.handle();
      case 'completed':
        return of(replay(http.getResponse<FastifyReply>(), claim.answer));
      case 'in_progress':
        throw ApiError.of(
          'idempotency_key_in_progress',
          'A request with this Idempotency-Key is still running; retry in a moment to get its answer.',
          '/header/Idempotency-Key',
          { 'retry-after': '1' },
        );
      case 'reused':
        throw ApiError.of(
          'idempotency_key_reused',
          'This Idempotency-Key was used in the last 24 hours for a request with another method, path or body; use a new key for a new request.',
          '/header/Idempotency-Key',
        );
    }
  }
}

function replay(reply: FastifyReply, answer: StoredAnswer): string | undefined {
  void reply.status(answer.status).headers(answer.headers).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return answer.body ?? undefined;
}

/**
 * Stores the answer of a request that claimed its key, as it leaves (status, body as sent, the headers that describe
 * it), before the client can see it: a retry sent after the answer arrived always finds it. Answers that say "try
 * again" are not stored and free the key instead, so that a retry runs: 5xx, 408 and 429. Everything else, 4xx
 * validation errors included, is the key's answer for 24 hours (as Stripe does): a corrected request needs a new key.
 */
export function registerIdempotency(fastify: FastifyInstance, keys: IdempotencyService): void {
  // A callback hook: an answer that claimed no key (every GET, most POSTs) leaves in the same turn.
  fastify.addHook('onSend', (request: ClaimingRequest, reply, payload, done) => {
    const id = request[CLAIM];
    if (id === undefined) return done(null, payload);
    delete request[CLAIM];
    void storeAnswer(keys, id, request, reply, payload).then(() => done(null, payload));
  });
}

/** Stores (or frees) a claimed key's answer; never fails, as the answer goes out whatever becomes of its record. */
async function storeAnswer(keys: IdempotencyService, id: string, request: ClaimingRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const status = reply.statusCode;
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? null : undefined;
  try {
    if (status >= 500 || status === 408 || status === 429 || body === undefined) {
      await keys.release(id);
    } else {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await keys.complete(id, { status, headers, body });
    }
  } catch (error) {
    // The answer still goes out; the claim lapses after its lease and a retry then runs again.
    request.log.error({ err: error }, 'could not record the answer of an idempotent request');
  }
}
