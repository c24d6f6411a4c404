import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { sendError } from '../errors/send-error.js';
import { isProbe } from './health.js';

/** Headers every answer carries, whoever writes it. */
export const SECURITY_HEADERS = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
};

/**
 * HTTPS only: in production a request that did not arrive over TLS (directly, or as told by a trusted proxy's
 * X-Forwarded-Proto) is refused before it reaches any handler, but for the health probes, which a load balancer sends
 * to the process itself and which carry no data. Every answer carries HSTS.
 */
export function registerSecurityHooks(fastify: FastifyInstance, config: AppConfig): void {
  // A callback hook, not an async one: nothing here waits, and every request passes through it.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    if (config.environment === 'production' && request.protocol !== 'https' && !isProbe(request.routeOptions.config)) {
      return void sendError(request, reply, ApiError.of('https_required', 'This API is served over HTTPS only; call it with https://.'));
    }
    done();
  });
}
