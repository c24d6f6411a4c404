import { type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { toErrorResponse } from './common/errors/error-response.js';
import { RouteTable } from './common/http/route-table.js';
import { registerSecurityHooks, SECURITY_HEADERS } from './common/http/security.hooks.js';
import { BodyValidationPipe } from './common/validation/validation.pipe.js';
import type { AppConfig } from './config/config.js';
import { BASE_PATH, buildOpenApiDocument } from './openapi/openapi.js';

const LOG_LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
  silent: [],
};

/**
 * Builds the API application (not yet listening): Nest on Fastify, every cross-cutting mechanism wired once. In
 * preview mode no provider is instantiated (no database or Redis connection): enough to generate the OpenAPI document.
 */
export async function createApi(config: AppConfig, options: { preview?: boolean } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Integrators write `/companies/` as often as `/companies`; both name the same resource.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // The router refuses a malformed URL or an over-long path segment before any hook or filter runs: those answers
    // leave as the integration error too, with the headers every answer carries.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      const { status, body, headers } = toErrorResponse(error);
      void reply
        .headers({ ...headers, ...SECURITY_HEADERS })
        .status(status)
        .type('application/json; charset=utf-8')
        .send(body);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: LOG_LEVELS[config.logLevel],
    abortOnError: false,
    preview: options.preview ?? false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // JSON is the only body this API reads; anything else is a 415, not a string that fails validation.
  fastify.removeContentTypeParser('text/plain');
  registerSecurityHooks(fastify, config);
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));
  app.enableCors({
    origin: '*',
    allowedHeaders: ['authorization', 'content-type'],
    exposedHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after'],
    maxAge: 600,
  });
  app.setGlobalPrefix(BASE_PATH.slice(1));
  app.useGlobalFilters(new AllExceptionsFilter(routes));
  app.useGlobalPipes(new BodyValidationPipe());
  app.enableShutdownHooks();
  await app.init();
  // Nest registers a form (urlencoded) parser at init; this API reads JSON only, so a form body is a 415 as well.
  fastify.removeContentTypeParser('application/x-www-form-urlencoded');

  const document = buildOpenApiDocument(app);
  fastify.get(`${BASE_PATH}/openapi.json`, async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  return app;
}
