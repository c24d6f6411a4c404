import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorResponse } from './error-response.js';

/** The one exception filter: every error, whoever raised it, leaves as the integration error body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, headers } = toErrorResponse(exception);
    reply.headers(headers).status(status).type('application/json; charset=utf-8').send(body);
  }
}
