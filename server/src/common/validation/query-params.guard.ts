import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/**
 * A route that documents no query parameter takes none: any is a 400 naming it, as the routes that read their
 * parameters (lists, expand, search) answer an unknown one, instead of being ignored. Runs after authentication and
 * company access, before the Idempotency-Key is claimed and before anything is read or changed.
 */
@Injectable()
export class QueryParamsGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const declared = this.reflector.get<Array<{ in?: string }> | undefined>(DECORATORS.API_PARAMETERS, context.getHandler()) ?? [];
    if (declared.some((parameter) => parameter.in === 'query')) return true;
    const [name] = Object.keys(context.switchToHttp().getRequest<FastifyRequest>().query ?? {});
    if (name !== undefined) throw ApiError.badQuery(name, `Unknown query parameter ${name}.`);
    return true;
  }
}
