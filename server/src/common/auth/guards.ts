import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { isUuid } from '../validation/uuid.js';
import { ApiError } from '../errors/api-error.js';
import { PUBLIC_ROUTE, type AuthenticatedRequest } from './auth-context.js';
import { AuthService } from './auth.service.js';
import { RateLimiterService } from './rate-limiter.service.js';

/** Every route needs a valid API key of this environment (401 otherwise), and counts against its rate limit. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const reply = http.getResponse<FastifyReply>();
    try {
      request.auth = await this.auth.authenticate(request.headers.authorization);
    } catch (error) {
      reply.header('www-authenticate', 'Bearer realm="flusso"');
      throw error;
    }
    await this.rateLimiter.consume(request.auth.keyId, reply);
    return true;
  }
}

/**
 * A route under /companies/{company_id} answers only for companies granted to the key's integrator: 403 for any
 * other, whether it exists or not, so nothing about other companies can be learnt.
 */
@Injectable()
export class CompanyAccessGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const companyId = (request.params as Record<string, string> | undefined)?.company_id;
    if (companyId === undefined || !request.auth) return true;
    if (!isUuid(companyId) || !request.auth.companyIds.has(companyId.toLowerCase())) {
      throw ApiError.forbidden('This API key has no access to this company.');
    }
    return true;
  }
}
