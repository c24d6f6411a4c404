import type { FastifyInstance } from 'fastify';
import type { AuthenticatedRequest } from '../auth/auth-context.js';
import { isUuid } from '../validation/uuid.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * Every answer carries the request's id in X-Request-Id, and every request leaves one access line at `info`: method,
 * route, status, duration, who called (integrator and key ids) and for which company. Never a header, a key or a body.
 */
export function registerAccessLog(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const { auth, params } = request as AuthenticatedRequest;
    const companyId = (params as { company_id?: unknown } | undefined)?.company_id;
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        integrator_id: auth?.integratorId ?? null,
        key_id: auth?.keyId ?? null,
        company_id: typeof companyId === 'string' && isUuid(companyId) ? companyId.toLowerCase() : null,
        ip: request.ip,
      },
      'request',
    );
    done();
  });
}
