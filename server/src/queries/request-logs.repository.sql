-- Written by `npm run sql` from server/src/request-logs/request-logs.repository.ts: do not edit.

-- RequestLogsRepository.insert
INSERT INTO
  request_logs (
    integrator_id,
    environment,
    api_key_id,
    key_prefix,
    company_id,
    method,
    route,
    path,
    status,
    status_class,
    error_codes,
    request_id,
    duration_ms,
    created_at
  )
SELECT
  integrator_id,
  environment,
  api_key_id,
  key_prefix,
  company_id,
  method,
  route,
  path,
  status,
  CASE
    WHEN status >= 500 THEN '5xx'
    ELSE '4xx'
  END,
  string_to_array(error_codes, ','),
  request_id,
  duration_ms,
  created_at
FROM
  unnest(
    $1::uuid[],
    $2::text[],
    $3::uuid[],
    $4::text[],
    $5::uuid[],
    $6::text[],
    $7::text[],
    $8::text[],
    $9::smallint[],
    $10::text[],
    $11::text[],
    $12::real[],
    $13::timestamptz[]
  ) AS t (
    integrator_id,
    environment,
    api_key_id,
    key_prefix,
    company_id,
    method,
    route,
    path,
    status,
    error_codes,
    request_id,
    duration_ms,
    created_at
  );

-- RequestLogsRepository.page
SELECT
  "r"."id" AS "r_id",
  "r"."integrator_id" AS "r_integrator_id",
  "r"."environment" AS "r_environment",
  "r"."api_key_id" AS "r_api_key_id",
  "r"."key_prefix" AS "r_key_prefix",
  "r"."company_id" AS "r_company_id",
  "r"."method" AS "r_method",
  "r"."route" AS "r_route",
  "r"."path" AS "r_path",
  "r"."status" AS "r_status",
  "r"."status_class" AS "r_status_class",
  "r"."error_codes" AS "r_error_codes",
  "r"."request_id" AS "r_request_id",
  "r"."duration_ms" AS "r_duration_ms",
  "r"."created_at" AS "r_created_at"
FROM
  "request_logs" "r"
WHERE
  "r"."integrator_id" = $1
  AND "r"."environment" = $2
  AND "r"."created_at" > now() - make_interval(days => 7)
ORDER BY
  "r"."created_at" DESC,
  "r"."id" DESC
LIMIT
  26;

-- RequestLogsRepository.get
SELECT
  "r"."id" AS "r_id",
  "r"."integrator_id" AS "r_integrator_id",
  "r"."environment" AS "r_environment",
  "r"."api_key_id" AS "r_api_key_id",
  "r"."key_prefix" AS "r_key_prefix",
  "r"."company_id" AS "r_company_id",
  "r"."method" AS "r_method",
  "r"."route" AS "r_route",
  "r"."path" AS "r_path",
  "r"."status" AS "r_status",
  "r"."status_class" AS "r_status_class",
  "r"."error_codes" AS "r_error_codes",
  "r"."request_id" AS "r_request_id",
  "r"."duration_ms" AS "r_duration_ms",
  "r"."created_at" AS "r_created_at"
FROM
  "request_logs" "r"
WHERE
  "r"."integrator_id" = $1
  AND "r"."environment" = $2
  AND "r"."created_at" > now() - make_interval(days => 7)
  AND "r"."id" = $3;

-- RequestLogsRepository.deleteBefore
DELETE FROM request_logs
WHERE
  id IN (
    SELECT
      id
    FROM
      request_logs
    WHERE
      created_at < $1
    LIMIT
      $2
  );
