import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { Environment } from '../../config/config.js';

/** Who is calling: resolved from the API key by the ApiKeyGuard. */
export interface AuthContext {
  keyId: string;
  /** The key's public start (environment prefix and lookup id): what logs and the request log may show of it. */
  keyPrefix: string;
  integratorId: string;
  environment: Environment;
  /** Companies the key's integrator was granted. */
  companyIds: ReadonlySet<string>;
  /** What the key may do (permissions.ts): `*`, or read/write per resource family. */
  permissions: ReadonlySet<string>;
}

export type AuthenticatedRequest = FastifyRequest & { auth?: AuthContext };

export const PUBLIC_ROUTE = 'flusso:public';
/**
 * Marks a route that answers without an API key (the OpenAPI document, health checks): for the guard, and in the
 * Fastify route's config for the hook that authenticates requests with a body before it is read (guards.ts).
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_ROUTE, true), RouteConfig({ public: true }));

export const CurrentAuth = createParamDecorator((_: unknown, context: ExecutionContext): AuthContext => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('CurrentAuth used on a public route');
  return auth;
});

/** The company named in the path, already checked against the key's grants by the CompanyAccessGuard. */
export const CompanyId = createParamDecorator(
  (_: unknown, context: ExecutionContext): string => (context.switchToHttp().getRequest<FastifyRequest>().params as Record<string, string>).company_id,
);
