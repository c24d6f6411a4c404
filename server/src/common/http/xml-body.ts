import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors/send-error.js';
import { ApiError } from '../errors/api-error.js';
import { SECURITY_HEADERS } from './security.hooks.js';

/** Routes that take an XML body besides JSON (method and route pattern, after the base path). */
export interface XmlRoutes {
  routes: ReadonlySet<string>;
  /** Largest XML body read; the handler refuses the ones its own rule finds too large with a clearer message. */
  bodyLimit: number;
}

const mediaType = (header: string | undefined) => header?.split(';')[0].trim().toLowerCase() || undefined;

/** The file types those routes take as bytes: the XML itself, or a signed file (CAdES .p7m) carrying it. */
export const SIGNED_FILE_TYPES = ['application/pkcs7-mime', 'application/x-pkcs7-mime'];
const FILE_TYPES = ['application/xml', ...SIGNED_FILE_TYPES];

/**
 * Lets `application/xml` and signed-file (`application/pkcs7-mime`) bodies reach the routes that take them, as bytes
 * (the handler decodes them as the file declares), and answers the content type of those routes before the body is parsed: a body without one is a 400, a
 * type other than XML or JSON a 415. Any other route still takes JSON only (an XML body there is a 415 as before).
 */
export function registerXmlBodies(fastify: FastifyInstance, xml: XmlRoutes): void {
  fastify.addContentTypeParser(FILE_TYPES, { parseAs: 'buffer', bodyLimit: xml.bodyLimit }, (_request, body, done) => done(null, body));
  fastify.addHook('onRequest', (request, reply, done) => {
    const route = `${request.method} ${request.routeOptions.url}`;
    const type = mediaType(request.headers['content-type']);
    if (xml.routes.has(route)) {
      // Without a body, the handler answers the missing type after authorization; with one, Fastify would say 415.
      const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
      if (!type && hasBody) {
        return void sendError(
          request,
          reply.headers(SECURITY_HEADERS),
          ApiError.of('bad_request', 'The Content-Type header is missing: send the invoice as application/xml or application/json.'),
        );
      }
      if (type && !FILE_TYPES.includes(type) && type !== 'application/json') {
        return void sendError(
          request,
          reply.headers(SECURITY_HEADERS),
          ApiError.of(
            'unsupported_media_type',
            `Send the invoice as application/xml, application/pkcs7-mime (a signed .p7m file) or application/json, not ${type}.`,
          ),
        );
      }
    } else if (type && FILE_TYPES.includes(type)) {
      return void sendError(request, reply.headers(SECURITY_HEADERS), ApiError.of('unsupported_media_type', 'Send the request body as application/json.'));
    }
    done();
  });
}
