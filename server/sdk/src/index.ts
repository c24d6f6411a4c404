// @flusso/sdk: a client of Flusso's Integration API. Its methods and types are generated from the API's OpenAPI
// document (src/generated); retries, paging, errors and webhook verification are written by hand.
import { DEFAULT_BASE_URL, FlussoOperations } from './generated/operations.js';
import type { FlussoOptions } from './core.js';

/**
 * The client: one method per operation, named by its operationId, with the path's ids (the company's first) as
 * arguments, then the query or the body, then RequestOptions.
 *
 *     const flusso = new Flusso({ apiKey: process.env.FLUSSO_API_KEY! });
 *     for await (const document of flusso.listDocuments(companyId, { 'filter[status__in]': ['SENT', 'DELIVERED'] })) …
 */
export class Flusso extends FlussoOperations {
  constructor(options: FlussoOptions) {
    super({ ...options, baseUrl: options.baseUrl ?? DEFAULT_BASE_URL });
  }
}

export { ListCall, type FlussoOptions, type RawBody, type RequestOptions } from './core.js';
export { FlussoError, type IntegrationError, type IntegrationErrorItem } from './errors.js';
export { DEFAULT_RETRY_POLICY, type RetryEvent, type RetryPolicy } from './retry.js';
export { verifyWebhook, WebhookVerificationError, type VerifyOptions } from './webhooks.js';
export { DEFAULT_BASE_URL, type WebhookEvent } from './generated/operations.js';
export type { components, operations, paths } from './generated/schema.js';
