import type { FastifyInstance } from 'fastify';
import { sendError } from '../common/errors/send-error.js';
import { ApiError } from '../common/errors/api-error.js';
import { SECURITY_HEADERS } from '../common/http/security.hooks.js';

/** The route that takes an F24 file, and the file types it takes as bytes. */
export const F24_UPLOAD_ROUTE = 'POST /api/v1/companies/:company_id/requests/f24/ocr';
export const F24_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'application/octet-stream'];

/**
 * Lets PDF and image bodies reach the F24 upload as bytes, read up to 1 MB past F24_MAX_BYTES so that a file a little
 * over the limit is answered with its size (the service's 413) rather than a bare one; any other route refuses them (415).
 */
export function registerF24Bodies(fastify: FastifyInstance, maxBytes: number): void {
  fastify.addContentTypeParser(F24_FILE_TYPES, { parseAs: 'buffer', bodyLimit: maxBytes + 1024 * 1024 }, (_request, body, done) => done(null, body));
  fastify.addHook('onRequest', (request, reply, done) => {
    const type = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
    const route = `${request.method} ${request.routeOptions.url}`;
    if (route !== F24_UPLOAD_ROUTE && type && F24_FILE_TYPES.includes(type)) {
      return void sendError(request, reply.headers(SECURITY_HEADERS), ApiError.of('unsupported_media_type', 'Send the request body as application/json.'));
    }
    if (route === F24_UPLOAD_ROUTE && type && !F24_FILE_TYPES.includes(type)) {
      return void sendError(
        request,
        reply.headers(SECURITY_HEADERS),
        ApiError.of('unsupported_media_type', `Send the F24 as application/pdf (or image/png, image/jpeg for a scan), not ${type}.`),
      );
    }
    done();
  });
}
