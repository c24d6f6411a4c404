/**
 * The API's version (the OpenAPI document's, the webhooks' User-Agent), the prefix of every route and the paths of the
 * health probes (common/http/health.ts). Runtime code reads them here, on the ground floor, so that naming them does
 * not load the OpenAPI builder and its examples (nor, for `npm start`'s supervisor, the API's modules).
 */
export const API_VERSION = '1.2.0';
export const BASE_PATH = '/api/v1';
/** Liveness and readiness, outside BASE_PATH: what a load balancer or an orchestrator probes. */
export const LIVENESS_PATH = '/healthz';
export const READINESS_PATH = '/readyz';
