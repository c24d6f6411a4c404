import type { DestinationStream } from 'pino';
import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyReply, type FastifyRequest, type RawServerDefault } from 'fastify';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { sendError } from './common/errors/send-error.js';
import { answerClientError } from './common/http/client-errors.js';
import { CORS_OPTIONS } from './common/http/cors.js';
import { HealthChecks, registerHealth } from './common/http/health.js';
import { RouteTable } from './common/http/route-table.js';
import { interceptRoutes } from './common/http/route-interceptors.js';
import { MAX_PATH_SEGMENT } from './common/http/path-params.js';
import { registerSecurityHooks, SECURITY_HEADERS } from './common/http/security.hooks.js';
import { IdempotencyInterceptor, registerIdempotency } from './common/idempotency/idempotency.interceptor.js';
import { IdempotencyService } from './common/idempotency/idempotency.service.js';
import { registerAccessLog } from './common/logging/access-log.js';
import { createLogger, NestPinoLogger } from './common/logging/logger.js';
import { requestIdOf } from './common/logging/request-id.js';
import { checkJsonBody, decodeJsonBody } from './common/validation/json-body.js';
import { registerXmlBodies } from './common/http/xml-body.js';
import { XML_BODY_LIMIT, XML_ROUTES } from './invoices/xml-routes.js';
import { registerF24Bodies } from './f24/f24-body.js';
import { BodyValidationPipe } from './common/validation/validation.pipe.js';
import { AuthService } from './common/auth/auth.service.js';
import { registerBodyAuthentication, registerShareRelease } from './common/auth/guards.js';
import { RateLimiterService } from './common/auth/rate-limiter.service.js';
import type { AppConfig } from './config/config.js';
import type { Clock } from './common/clock/clock.port.js';
import { BASE_PATH } from './config/api-version.js';
import { buildOpenApiDocument } from './openapi/openapi.js';
import { RequestLogWriter } from './request-logs/request-log-writer.js';

/**
 * Builds the API application (not yet listening): Nest on Fastify, every cross-cutting mechanism wired once. In
 * preview mode no provider is instantiated (no database or Redis connection): enough to generate the OpenAPI document.
 */
export async function createApi(
  config: AppConfig,
  options: { preview?: boolean; logDestination?: DestinationStream; clock?: Clock } = {},
): Promise<NestFastifyApplication> {
  const logger = createLogger(config, 'api', options.logDestination);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // The caller's X-Request-Id when it is a sensible one, else a new id; on every answer and log line of the request.
    genReqId: requestIdOf,
    // One access line per request (registerAccessLog) instead of Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // A client that trickles its request (a stalled body, slowloris) holds a connection and a socket's memory: the whole
    // request must arrive within REQUEST_TIMEOUT_MS (Fastify's default is no limit), else 408 (client-errors.ts). Node
    // checks every connectionsCheckingInterval, so that follows the limit, and applies it only when the headers' own
    // limit (60 s by default) is not longer.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.round(config.requestTimeoutMs / 4))),
    },
    trustProxy: config.trustProxy,
    // Integrators write `/companies/` as often as `/companies`; both name the same resource.
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT, ignoreTrailingSlash: true },
    // The router refuses a malformed URL or an over-long path segment before any hook or filter runs: those answers
    // leave as the integration error too, with the headers every answer carries.
    // Requests Node's HTTP parser refuses never reach Fastify: they are answered as the integration error too.
    clientErrorHandler: answerClientError,
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => sendError(request, reply.headers(SECURITY_HEADERS), error),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.clock), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    preview: options.preview ?? false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // JSON is the body this API reads (and XML for invoices, registerXmlBodies); anything else is a 415, not a string that fails validation.
  fastify.removeContentTypeParser('text/plain');
  // The body decoded as its charset declares, Fastify's JSON parser, then the checks that must run before
  // class-transformer walks the body (json-body.ts). `__proto__` and `constructor` are kept by the parser as plain
  // members (JSON.parse never sets a prototype), so that the check refuses them with their pointer like `toString`.
  // An empty body is no body (clients that send Content-Type on every request, a DELETE's too): a route that reads one
  // says it is missing (BodyValidationPipe), one that takes none goes on.
  const parseJson = fastify.getDefaultJsonParser('ignore', 'ignore');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit: config.bodyLimitBytes }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    let text: string;
    try {
      text = decodeJsonBody(body as Buffer, request.headers['content-type']);
    } catch (refused) {
      return done(refused as Error, undefined);
    }
    // Fastify's own parser answers through its callback: it returns nothing to wait for.
    void parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      try {
        checkJsonBody(value);
      } catch (invalid) {
        return done(invalid as Error, undefined);
      }
      done(null, value);
    });
  });
  // Failed requests of a known key also go to the integrator's request log (REQUEST_LOG=off: not); no provider in preview.
  registerAccessLog(fastify, options.preview || !config.requestLog.enabled ? undefined : app.get(RequestLogWriter));
  registerSecurityHooks(fastify, config);
  // Before the XML routes' content-type answers, so those too come after authentication; no provider in preview.
  if (!options.preview) registerBodyAuthentication(fastify, app.get(AuthService), app.get(RateLimiterService));
  registerXmlBodies(fastify, { routes: XML_ROUTES, bodyLimit: XML_BODY_LIMIT });
  registerF24Bodies(fastify, config.f24.maxBytes);
  // Stores the answers of POSTs sent with an Idempotency-Key (the interceptor, on POST routes only, claims the key); no
  // provider in preview.
  if (!options.preview) {
    registerIdempotency(fastify, app.get(IdempotencyService));
    interceptRoutes(app, RequestMethod.POST, app.get(IdempotencyInterceptor));
  }
  registerShareRelease(fastify);
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));
  app.enableCors(CORS_OPTIONS);
  app.setGlobalPrefix(BASE_PATH.slice(1));
  app.useGlobalFilters(new AllExceptionsFilter(routes));
  app.useGlobalPipes(new BodyValidationPipe());
  app.enableShutdownHooks();
  await app.init();
  // Nest registers a form (urlencoded) parser at init; this API reads JSON only, so a form body is a 415 as well.
  fastify.removeContentTypeParser('application/x-www-form-urlencoded');

  const document = buildOpenApiDocument(app);
  fastify.get(`${BASE_PATH}/openapi.json`, { config: { public: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(document),
  );
  // Liveness and readiness for load balancers and orchestrators (health.ts); no provider in preview.
  if (!options.preview) registerHealth(fastify, app.get(HealthChecks));
  return app;
}
