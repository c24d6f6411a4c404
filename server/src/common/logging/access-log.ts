import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { levels } from 'pino';
import type { AuthContext, AuthenticatedRequest } from '../auth/auth-context.js';
import { isProbe } from '../http/health.js';
import { isUuid } from '../validation/uuid.js';
import { BASE_PATH } from '../../config/api-version.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { errorCodesOf, type FailedRequest, type RequestRecorder } from './request-recorder.js';

/** Longest path the request log keeps: no route of this API is longer, and a client's junk should not fill a row. */
const MAX_LOGGED_PATH = 1024;

/**
 * Every answer carries the request's id in X-Request-Id, and every request leaves one access line at `info`: method,
 * route, status, duration, who called (integrator and key ids) and for which company. Never a header, a key or a body.
 * A failed request (4xx, 5xx) of a known key also goes to `recorder`, the integrator's request log, which keeps it off
 * the request path and writes what it holds when the server closes.
 */
export function registerAccessLog(fastify: FastifyInstance, recorder?: RequestRecorder): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const { auth, params } = request as AuthenticatedRequest;
    const companyId = (params as { company_id?: unknown } | undefined)?.company_id;
    // The line is built only when it is written (LOG_LEVEL at info or below); a health probe answered 200 leaves none.
    if (levels.values[request.log.level] <= levels.values.info && !(reply.statusCode < 400 && isProbe(request.routeOptions.config))) {
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
    }
    if (recorder && auth && reply.statusCode >= 400) recorder.record(failedRequest(request, reply, auth, companyId));
    done();
  });
  if (recorder) fastify.addHook('onClose', () => recorder.close());
}

/** A failed request as the request log keeps it. */
function failedRequest(request: FastifyRequest, reply: FastifyReply, auth: AuthContext, companyId: unknown): FailedRequest {
  const route = request.routeOptions.url;
  return {
    integratorId: auth.integratorId,
    environment: auth.environment,
    apiKeyId: auth.keyId,
    keyPrefix: auth.keyPrefix,
    companyId: typeof companyId === 'string' && isUuid(companyId) ? companyId.toLowerCase() : null,
    method: request.method,
    route: route ? routeTemplate(route) : null,
    path: request.url.split('?')[0].slice(0, MAX_LOGGED_PATH),
    status: reply.statusCode,
    errorCodes: errorCodesOf(request),
    requestId: request.id,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    at: new Date(Date.now() - reply.elapsedTime),
  };
}

/** Fastify's route (`/api/v1/companies/:company_id/documents`) as the OpenAPI document writes it (`/companies/{company_id}/documents`). */
export function routeTemplate(route: string): string {
  const relative = route.startsWith(`${BASE_PATH}/`) ? route.slice(BASE_PATH.length) : route;
  return relative.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
