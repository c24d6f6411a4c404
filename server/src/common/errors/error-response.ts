import { HttpException, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { ApiError, errorItem, type ErrorBody } from './api-error.js';
import { codeForStatus, ERROR_CODES, type ErrorCode } from './error-codes.js';

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

const logger = new Logger('Errors');

function single(code: ErrorCode, detail: string | null, status: number = ERROR_CODES[code].status): ErrorResponse {
  return { status, body: { errors: [errorItem(code, detail)] }, headers: {} };
}

/** Errors raised by Fastify itself before a handler runs (body parsing, limits, URLs). */
function fromFastify(error: { code?: string; statusCode?: number; message?: string }): ErrorResponse | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return single('payload_too_large', 'The request body is larger than this API accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return single('unsupported_media_type', 'Send the request body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return single('bad_request', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return single('bad_request', 'The Content-Length header does not match the body.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return single('not_found', 'A path segment is longer than any id this API issues.');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return single('bad_request', 'The request URL is malformed.');
  }
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return single('bad_request', `The request body is not valid JSON: ${error.message}`);
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 && error.code?.startsWith('FST_')) {
    return single(codeForStatus(error.statusCode), error.message ?? null, error.statusCode);
  }
  return undefined;
}

/** PostgreSQL errors: input the database refused becomes a client error; nothing of the SQL leaks. */
function fromDatabase(error: QueryFailedError): ErrorResponse {
  const code = (error.driverError as { code?: string } | undefined)?.code ?? '';
  if (code === '22P02' || code === '22003' || code === '22007' || code === '22008' || code === '22001') {
    return single('unprocessable_entity', 'A value in the request is out of the range this API accepts.');
  }
  if (code === '23505' || code === '23503' || code === '23514') {
    return single('unprocessable_entity', 'The request conflicts with the current state of the data.');
  }
  if (code.startsWith('08') || code === '57P01' || code === '57P03') {
    return single('service_unavailable', 'The database is unavailable; try again shortly.');
  }
  logger.error(`Database error ${code}: ${error.message}`, error.stack);
  return single('internal_server_error', 'An unexpected error occurred; it has been logged.');
}

function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'ENOTFOUND' || code === 'ECONNRESET';
}

/** Turns anything thrown while answering into the integration error body. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) {
    return { status: error.status, body: { errors: error.items }, headers: error.headers };
  }
  if (error instanceof HttpException) {
    // Nest hands Fastify's own errors (body parsing, limits) over wrapped, with the original as the cause.
    const fastify = typeof error.cause === 'object' && error.cause !== null ? fromFastify(error.cause as never) : undefined;
    if (fastify) return fastify;
    const status = error.getStatus();
    const response = error.getResponse();
    const message =
      typeof response === 'object' && response && 'message' in response ? (response as { message: unknown }).message : response;
    const detail = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : error.message;
    if (status === 404 && /^Cannot [A-Z]+ /.test(detail)) {
      return single('not_found', `There is no route ${detail.slice('Cannot '.length)}.`);
    }
    return single(codeForStatus(status), detail, status);
  }
  if (error instanceof QueryFailedError) return fromDatabase(error);
  const fastify = typeof error === 'object' && error !== null ? fromFastify(error as never) : undefined;
  if (fastify) return fastify;
  if (isConnectionFailure(error)) {
    return single('service_unavailable', 'A backing service is unavailable; try again shortly.');
  }
  logger.error(error instanceof Error ? error.message : String(error), error instanceof Error ? error.stack : undefined);
  return single('internal_server_error', 'An unexpected error occurred; it has been logged.');
}
