import type { RequestLogDto } from './request-log.dto.js';
import type { RequestLog } from './request-log.entity.js';
import { instant } from '../common/time/instant.js';

export function presentRequestLog(log: RequestLog): RequestLogDto {
  return {
    id: log.id,
    created_at: instant(log.createdAt),
    method: log.method,
    route: log.route,
    path: log.path,
    status: log.status,
    error_codes: log.errorCodes,
    request_id: log.requestId,
    key_prefix: log.keyPrefix,
    company_id: log.companyId,
    // Stored as `real`: the tenth of a millisecond it was measured to, without float noise.
    duration_ms: Math.round(log.durationMs * 10) / 10,
  };
}
