-- Written by `npm run sql` from server/src/common/auth/api-keys.repository.ts: do not edit.

-- ApiKeysRepository.findUsable
SELECT
  k.id,
  k.integrator_id,
  k.environment,
  k.secret_hash,
  k.permissions,
  coalesce(
    array_agg(g.company_id::text) FILTER (
      WHERE
        g.company_id IS NOT NULL
    ),
    '{}'
  ) AS company_ids
FROM
  api_keys k
  LEFT JOIN company_grants g ON g.integrator_id = k.integrator_id
WHERE
  k.lookup = $1
  AND k.revoked_at IS NULL
GROUP BY
  k.id;

-- ApiKeysRepository.create
START TRANSACTION;

INSERT INTO
  "api_keys" (
    "id",
    "integrator_id",
    "environment",
    "name",
    "lookup",
    "secret_hash",
    "permissions",
    "created_at",
    "revoked_at"
  )
VALUES
  (DEFAULT, $1, $2, $3, $4, $5, $6, DEFAULT, $7)
RETURNING
  "id",
  "created_at";

ROLLBACK;

-- ApiKeysRepository.list (of an integrator)
SELECT
  "ApiKey"."id" AS "ApiKey_id",
  "ApiKey"."integrator_id" AS "ApiKey_integrator_id",
  "ApiKey"."environment" AS "ApiKey_environment",
  "ApiKey"."name" AS "ApiKey_name",
  "ApiKey"."lookup" AS "ApiKey_lookup",
  "ApiKey"."secret_hash" AS "ApiKey_secret_hash",
  "ApiKey"."permissions" AS "ApiKey_permissions",
  "ApiKey"."created_at" AS "ApiKey_created_at",
  "ApiKey"."revoked_at" AS "ApiKey_revoked_at"
FROM
  "api_keys" "ApiKey"
WHERE
  (("ApiKey"."integrator_id" = $1))
ORDER BY
  "ApiKey"."created_at" ASC,
  "ApiKey"."id" ASC;

-- ApiKeysRepository.list (all)
SELECT
  "ApiKey"."id" AS "ApiKey_id",
  "ApiKey"."integrator_id" AS "ApiKey_integrator_id",
  "ApiKey"."environment" AS "ApiKey_environment",
  "ApiKey"."name" AS "ApiKey_name",
  "ApiKey"."lookup" AS "ApiKey_lookup",
  "ApiKey"."secret_hash" AS "ApiKey_secret_hash",
  "ApiKey"."permissions" AS "ApiKey_permissions",
  "ApiKey"."created_at" AS "ApiKey_created_at",
  "ApiKey"."revoked_at" AS "ApiKey_revoked_at"
FROM
  "api_keys" "ApiKey"
ORDER BY
  "ApiKey"."created_at" ASC,
  "ApiKey"."id" ASC;

-- ApiKeysRepository.get
SELECT
  "ApiKey"."id" AS "ApiKey_id",
  "ApiKey"."integrator_id" AS "ApiKey_integrator_id",
  "ApiKey"."environment" AS "ApiKey_environment",
  "ApiKey"."name" AS "ApiKey_name",
  "ApiKey"."lookup" AS "ApiKey_lookup",
  "ApiKey"."secret_hash" AS "ApiKey_secret_hash",
  "ApiKey"."permissions" AS "ApiKey_permissions",
  "ApiKey"."created_at" AS "ApiKey_created_at",
  "ApiKey"."revoked_at" AS "ApiKey_revoked_at"
FROM
  "api_keys" "ApiKey"
WHERE
  (("ApiKey"."id" = $1))
LIMIT
  1;

-- ApiKeysRepository.revoke
UPDATE "api_keys"
SET
  "revoked_at" = $1
WHERE
  "id" = $2;
