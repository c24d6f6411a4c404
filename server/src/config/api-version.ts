/**
 * The API's version (the OpenAPI document's, the webhooks' User-Agent) and the prefix of every route. Runtime code reads
 * them here, on the ground floor, so that naming them does not load the OpenAPI builder and its examples.
 */
export const API_VERSION = '1.2.0';
export const BASE_PATH = '/api/v1';
