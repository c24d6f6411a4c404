-- Written by `npm run sql` from server/src/common/http/health.repository.ts: do not edit.

-- HealthRepository.ping
SELECT
  1;
