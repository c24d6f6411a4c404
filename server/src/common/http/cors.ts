import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency-key.js';
import { REQUEST_ID_HEADER } from '../logging/request-id.js';
import { RATE_LIMIT_LIMIT_HEADER, RATE_LIMIT_REMAINING_HEADER } from '../auth/rate-limiter.service.js';

/** Every method a route of the API answers (the CORS test checks it against the OpenAPI document). */
export const CORS_ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'] as const;
/** Every request header the API reads. */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER] as const;
/** Every response header the API sends that a caller may act on; others (content-type…) are readable anyway. */
export const CORS_EXPOSED_HEADERS = [
  RATE_LIMIT_LIMIT_HEADER,
  RATE_LIMIT_REMAINING_HEADER,
  'retry-after',
  REQUEST_ID_HEADER,
  'location',
  'allow',
  'www-authenticate',
  IDEMPOTENT_REPLAYED_HEADER,
] as const;

/**
 * Browsers on any origin may call the API (an API key, not a cookie, authenticates: nothing rides along on its own), with
 * every method and header it has. The preflight is cached for 10 minutes.
 */
export const CORS_OPTIONS = {
  origin: '*',
  methods: [...CORS_ALLOWED_METHODS],
  allowedHeaders: [...CORS_ALLOWED_HEADERS],
  exposedHeaders: [...CORS_EXPOSED_HEADERS],
  maxAge: 600,
};
