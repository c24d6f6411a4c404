import { type ArgumentsHost, Catch, type ExceptionFilter, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteTable } from '../http/route-table.js';
import { ApiError } from './api-error.js';
import { sendError } from './send-error.js';

/** The one exception filter: every error, whoever raised it, leaves as the integration error body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly routes: RouteTable) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    sendError(request, http.getResponse<FastifyReply>(), this.methodNotAllowed(exception, request) ?? exception);
  }

  /** Nest's "no route" 404, for a path that exists with other methods, is a 405 naming them. */
  private methodNotAllowed(exception: unknown, request: FastifyRequest): ApiError | undefined {
    if (!(exception instanceof NotFoundException) || !/^Cannot [A-Z]+ /.test(exception.message)) return undefined;
    const allowed = this.routes.allowedMethods(request.url.split('?')[0]);
    if (allowed.length === 0) return undefined;
    return ApiError.of('method_not_allowed', `${request.method} is not allowed on this path; use ${allowed.join(', ')}.`, undefined, {
      allow: allowed.join(', '),
    });
  }
}
