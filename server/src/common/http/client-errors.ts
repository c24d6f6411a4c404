import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errorItem, type ErrorBody } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { REQUEST_ID_HEADER } from '../logging/request-id.js';
import { SECURITY_HEADERS } from './security.hooks.js';

/** What Node's HTTP parser refused, as the integration error. */
function describe(error: NodeJS.ErrnoException): { status: number; code: ErrorCode; detail: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'headers_too_large', detail: `The request line and headers are larger than ${maxHeaderSize / 1024} KB.` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', detail: 'The request was not received in time.' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, code: 'bad_request', detail: 'The Content-Length header is malformed, repeated, or sent together with Transfer-Encoding.' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, code: 'bad_request', detail: 'The Transfer-Encoding header is not chunked, or is sent together with Content-Length.' };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 400, code: 'bad_request', detail: 'The chunked request body is malformed.' };
    default:
      return { status: 400, code: 'bad_request', detail: 'The request is not valid HTTP/1.1.' };
  }
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (headers over the limit, a bad Content-Length,
 * broken chunked encoding) never reach Fastify or Nest. They are answered here, on the socket, with the integration
 * error body and the headers every answer carries, and the connection is closed, as Node itself does.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node does: no answer when one to an earlier request on this connection is already being written.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status, code, detail } = describe(error);
    // The request was never read, so it has no id of its own: this answer gets a new one, logged with the refusal.
    const requestId = randomUUID();
    this.log.info({ request_id: requestId, status, reason: error.code }, 'request refused by the HTTP parser');
    const body: ErrorBody = { errors: [errorItem(code, detail)], meta: { request_id: requestId } };
    const json = JSON.stringify(body);
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(json)),
      connection: 'close',
      [REQUEST_ID_HEADER]: requestId,
      ...SECURITY_HEADERS,
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${json}`);
  }
  socket.destroy(error);
}
