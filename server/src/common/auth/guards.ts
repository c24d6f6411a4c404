import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CompanyShares } from '../database/company-shares.js';
import { routeFacts } from '../http/route-metadata.js';
import { isUuid } from '../validation/uuid.js';
import { ApiError } from '../errors/api-error.js';
import { sendError } from '../errors/send-error.js';
import { PUBLIC_ROUTE, type AuthenticatedRequest } from './auth-context.js';
import { AuthService } from './auth.service.js';
import { allows, type ANY_KEY, type Permission, REQUIRED_PERMISSION } from './permissions.js';
import { RateLimiterService } from './rate-limiter.service.js';

/**
 * Every route needs a valid API key of this environment (401 otherwise), counts against its rate limit, and needs the
 * permission it declares with @RequirePermission (403 insufficient_permission otherwise). A route that declares none
 * needs `*` (a test makes sure every route declares one).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** Whether the route is public, and the permission it needs otherwise. */
  private readonly route: (context: ExecutionContext) => { isPublic: boolean; needed: Permission | typeof ANY_KEY };

  constructor(
    reflector: Reflector,
    private readonly auth: AuthService,
    private readonly rateLimiter: RateLimiterService,
  ) {
    this.route = routeFacts((handler, controller) => ({
      isPublic: Boolean(reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler as () => void, controller as () => void])),
      needed: reflector.get<Permission | typeof ANY_KEY | undefined>(REQUIRED_PERMISSION, handler as () => void) ?? '*',
    }));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { isPublic, needed } = this.route(context);
    if (isPublic) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    // A request with a body was admitted before its body was read (registerBodyAuthentication).
    request.auth ??= await admit(request, http.getResponse<FastifyReply>(), this.auth, this.rateLimiter);
    if (!allows(request.auth.permissions, needed)) throw ApiError.insufficientPermission(needed);
    return true;
  }
}

/** The key of a request (401 with a challenge), counted against its rate limit (429 past it). */
async function admit(request: FastifyRequest, reply: FastifyReply, auth: AuthService, rateLimiter: RateLimiterService) {
  let context;
  try {
    context = await auth.authenticate(request.headers.authorization, request.ip);
  } catch (error) {
    reply.header('www-authenticate', 'Bearer realm="flusso"');
    throw error;
  }
  // Known before the rate limit answers: a 429 is the key's own failure, in its integrator's request log.
  (request as AuthenticatedRequest).auth = context;
  await rateLimiter.consume(context.keyId, reply);
  return context;
}

/**
 * Fastify refuses a malformed, mistyped or oversized body before any guard runs. So a request with a body, to a route
 * that needs a key, is admitted as the guard would do before the body is read: without a valid key it is a 401, and
 * with one it is counted and carries the rate-limit headers whatever its body turns out to be. A request that names a
 * key but no route (404, 405) is admitted the same way, so its answer too is counted and carries those headers.
 */
export function registerBodyAuthentication(fastify: FastifyInstance, auth: AuthService, rateLimiter: RateLimiterService): void {
  // A callback hook: the requests it does not admit (most: those without a body) go on in the same turn.
  fastify.addHook('onRequest', (request: AuthenticatedRequest, reply, done) => {
    const { url, config } = request.routeOptions;
    const withBody =
      request.headers['content-type'] !== undefined || request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    const admitted = url ? withBody && !(config as { public?: boolean }).public : request.headers.authorization !== undefined;
    if (!admitted || request.method === 'OPTIONS') return done();
    admit(request, reply, auth, rateLimiter).then(
      (context) => {
        request.auth = context;
        done();
      },
      (error: unknown) => sendError(request, reply, error),
    );
  });
}

/** The place a request holds in its company's share, given back when its answer is sent (registerShareRelease). */
const SHARE_PLACE = Symbol('company share place');
type PlaceHolding = FastifyRequest & { [SHARE_PLACE]?: () => void };

/**
 * A route under /companies/{company_id} answers only for companies granted to the key's integrator: 403 for any
 * other, whether it exists or not, so nothing about other companies can be learnt. A granted request then draws on
 * that company's share of the process's database work (DB_COMPANY_CONNECTIONS requests at once, common/database/
 * company-shares.ts). Over its share it waits up to DB_COMPANY_WAIT_MS, then gets 429: the caller sends more at once
 * than its share. A client that goes away while its request waits gives its place in line up at once; one that goes
 * away later leaves its handler running on a pooled connection, so the place is held until that handler answers.
 */
@Injectable()
export class CompanyAccessGuard implements CanActivate {
  constructor(private readonly shares: CompanyShares) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & PlaceHolding>();
    const companyId = (request.params as Record<string, string> | undefined)?.company_id;
    if (companyId === undefined || !request.auth) return true;
    if (!isUuid(companyId) || !request.auth.companyIds.has(companyId.toLowerCase())) {
      throw ApiError.forbidden('This API key has no access to this company.');
    }
    // Listened to from before the wait: a client gone while its request waits leaves the line then, not at its turn.
    const end = context.switchToHttp().getResponse<FastifyReply>().raw;
    request[SHARE_PLACE] = await this.shares.enter(companyId.toLowerCase(), end);
    return true;
  }
}

/**
 * Gives a request's place in its company's share back as its answer is sent, whatever produced the answer (the
 * handler, an error it threw, a later guard, a time-out mapped to 503) and whether or not its client is still there:
 * every path through Nest ends in reply.send. Registered after the idempotency hook, so the place also covers storing
 * the answer.
 */
export function registerShareRelease(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request: PlaceHolding, _reply, payload, done) => {
    const leave = request[SHARE_PLACE];
    if (leave) {
      request[SHARE_PLACE] = undefined;
      leave();
    }
    done(null, payload);
  });
}
