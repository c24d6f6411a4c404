import { type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { registerSecurityHooks } from './common/http/security.hooks.js';
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
    routerOptions: { maxParamLength: 200 },
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
  app.enableCors({
    origin: '*',
    allowedHeaders: ['authorization', 'content-type'],
    exposedHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after'],
    maxAge: 600,
  });
  app.setGlobalPrefix(BASE_PATH.slice(1));
  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalPipes(new BodyValidationPipe());
  app.enableShutdownHooks();
  await app.init();

  const document = buildOpenApiDocument(app);
  fastify.get(`${BASE_PATH}/openapi.json`, async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  return app;
}
