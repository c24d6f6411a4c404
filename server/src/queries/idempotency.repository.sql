-- Written by `npm run sql` from server/src/common/idempotency/idempotency.repository.ts: do not edit.

-- IdempotencyRepository.claim
INSERT INTO
  idempotency_keys (
    integrator_id,
    environment,
    company_id,
    key,
    fingerprint,
    status,
    locked_until,
    expires_at
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    'in_progress',
    now() + make_interval(secs => $6),
    now() + make_interval(hours => $7)
  )
ON CONFLICT (integrator_id, environment, company_id, key) DO UPDATE
SET
  fingerprint = EXCLUDED.fingerprint,
  status = 'in_progress',
  locked_until = EXCLUDED.locked_until,
  response_status = NULL,
  response_headers = NULL,
  response_body = NULL,
  created_at = now(),
  expires_at = EXCLUDED.expires_at
WHERE
  idempotency_keys.expires_at <= now()
  OR (
    idempotency_keys.status = 'in_progress'
    AND idempotency_keys.locked_until <= now()
    AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
  )
RETURNING
  id;

-- IdempotencyRepository.find
SELECT
  fingerprint,
  status,
  response_status,
  response_headers,
  response_body
FROM
  idempotency_keys
WHERE
  integrator_id = $1
  AND environment = $2
  AND company_id IS NOT DISTINCT FROM $3
  AND key = $4;

-- IdempotencyRepository.complete
UPDATE idempotency_keys
SET
  status = 'completed',
  locked_until = NULL,
  response_status = $2,
  response_headers = $3,
  response_body = $4
WHERE
  id = $1
  AND status = 'in_progress';

-- IdempotencyRepository.release
DELETE FROM idempotency_keys
WHERE
  id = $1
  AND status = 'in_progress';

-- IdempotencyRepository.deleteExpired
WITH
  deleted AS (
    DELETE FROM idempotency_keys
    WHERE
      id IN (
        SELECT
          id
        FROM
          idempotency_keys
        WHERE
          expires_at <= now()
        LIMIT
          $1
      )
      AND expires_at <= now()
    RETURNING
      1
  )
SELECT
  count(*)::int AS count
FROM
  deleted;
