import { MAX_INVOICE_BYTES } from './fatturapa/index.js';

/** The routes that take a FatturaPA XML body (app.ts lets application/xml through to them only). */
export const XML_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/v1/companies/:company_id/documents/invoice',
  'POST /api/v1/companies/:company_id/sandbox/received-invoices',
]);

/**
 * XML bodies are read up to 1 MB past the SDI's 5 MB, so that a file a little over the limit is answered with the
 * SDI's reason (its error 00003) rather than a bare 413; beyond that Fastify stops reading.
 */
export const XML_BODY_LIMIT = MAX_INVOICE_BYTES + 1024 * 1024;
