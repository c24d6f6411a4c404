import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging/request-id.js';
import { noteErrorCodes } from '../logging/request-recorder.js';
import { toErrorResponse } from './error-response.js';

/**
 * Answers a request with the integration error for anything thrown, the request's id in `meta.request_id` and its
 * header; failures on the API's side (5xx) are logged at `error` with that id and their cause.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  const { status, body, headers, unexpected } = toErrorResponse(error);
  if (status >= 500) request.log.error({ status, err: unexpected ?? error }, 'request failed');
  noteErrorCodes(
    request,
    body.errors.map((item) => item.code),
  );
  void reply
    .headers({ ...headers, [REQUEST_ID_HEADER]: request.id })
    .status(status)
    .type('application/json; charset=utf-8')
    .send({ ...body, meta: { request_id: request.id } });
}
