import type { FastifyInstance } from 'fastify';
import type { AuthenticatedRequest } from '../auth/auth-context.js';
import { isUuid } from '../validation/uuid.js';
import { BASE_PATH } from '../../config/api-version.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { errorCodesOf, type RequestRecorder } from './request-recorder.js';

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
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? null,
      path: request.url.split('?')[0],
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
      integrator_id: auth?.integratorId ?? null,
      key_id: auth?.keyId ?? null,
      company_id: typeof companyId === 'string' && isUuid(companyId) ? companyId.toLowerCase() : null,
      ip: request.ip,
    };
    request.log.info(line, 'request');
    if (recorder && auth && line.status >= 400) {
      recorder.record({
        integratorId: auth.integratorId,
        environment: auth.environment,
        apiKeyId: auth.keyId,
        keyPrefix: auth.keyPrefix,
        companyId: line.company_id,
        method: line.method,
        route: line.route && routeTemplate(line.route),
        path: line.path.slice(0, MAX_LOGGED_PATH),
        status: line.status,
        errorCodes: errorCodesOf(request),
        requestId: request.id,
        durationMs: line.duration_ms,
        at: new Date(Date.now() - reply.elapsedTime),
      });
    }
    done();
  });
  if (recorder) fastify.addHook('onClose', () => recorder.close());
}

/** Fastify's route (`/api/v1/companies/:company_id/documents`) as the OpenAPI document writes it (`/companies/{company_id}/documents`). */
export function routeTemplate(route: string): string {
  const relative = route.startsWith(`${BASE_PATH}/`) ? route.slice(BASE_PATH.length) : route;
  return relative.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
