import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { routeFacts } from '../http/route-metadata.js';

/**
 * A route that documents no query parameter takes none: any is a 400 naming it, as the routes that read their
 * parameters (lists, expand, search) answer an unknown one, instead of being ignored. Runs after authentication and
 * company access, before the Idempotency-Key is claimed and before anything is read or changed.
 */
@Injectable()
export class QueryParamsGuard implements CanActivate {
  /** Whether the route documents a query parameter. */
  private readonly takesQuery: (context: ExecutionContext) => boolean;

  constructor(reflector: Reflector) {
    this.takesQuery = routeFacts((handler) =>
      (reflector.get<Array<{ in?: string }> | undefined>(DECORATORS.API_PARAMETERS, handler as () => void) ?? []).some((parameter) => parameter.in === 'query'),
    );
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.takesQuery(context)) return true;
    const [name] = Object.keys(context.switchToHttp().getRequest<FastifyRequest>().query ?? {});
    if (name !== undefined) throw ApiError.badQuery(name, `Unknown query parameter ${name}.`);
    return true;
  }
}
