-- Written by `npm run sql` from server/src/common/auth/api-keys.repository.ts: do not edit.

-- ApiKeysRepository.findUsable
SELECT
  k.id,
  k.integrator_id,
  k.environment,
  k.secret_hash,
  k.permissions,
  k.expires_at,
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
  AND (
    k.expires_at IS NULL
    OR k.expires_at > now()
  )
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
    "revoked_at",
    "expires_at",
    "last_used_at"
  )
VALUES
  (
    DEFAULT,
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    DEFAULT,
    $7,
    $8,
    $9
  )
RETURNING
  "id",
  "created_at";

ROLLBACK;

-- ApiKeysRepository.page
SELECT
  "k"."id" AS "k_id",
  "k"."integrator_id" AS "k_integrator_id",
  "k"."environment" AS "k_environment",
  "k"."name" AS "k_name",
  "k"."lookup" AS "k_lookup",
  "k"."secret_hash" AS "k_secret_hash",
  "k"."permissions" AS "k_permissions",
  "k"."created_at" AS "k_created_at",
  "k"."revoked_at" AS "k_revoked_at",
  "k"."expires_at" AS "k_expires_at",
  "k"."last_used_at" AS "k_last_used_at"
FROM
  "api_keys" "k"
WHERE
  "k"."integrator_id" = $1
  AND "k"."environment" = $2
ORDER BY
  "k"."created_at" ASC,
  "k"."id" ASC
LIMIT
  26;

-- ApiKeysRepository.findOwned
SELECT
  "ApiKey"."id" AS "ApiKey_id",
  "ApiKey"."integrator_id" AS "ApiKey_integrator_id",
  "ApiKey"."environment" AS "ApiKey_environment",
  "ApiKey"."name" AS "ApiKey_name",
  "ApiKey"."lookup" AS "ApiKey_lookup",
  "ApiKey"."secret_hash" AS "ApiKey_secret_hash",
  "ApiKey"."permissions" AS "ApiKey_permissions",
  "ApiKey"."created_at" AS "ApiKey_created_at",
  "ApiKey"."revoked_at" AS "ApiKey_revoked_at",
  "ApiKey"."expires_at" AS "ApiKey_expires_at",
  "ApiKey"."last_used_at" AS "ApiKey_last_used_at"
FROM
  "api_keys" "ApiKey"
WHERE
  (
    ("ApiKey"."id" = $1)
    AND ("ApiKey"."integrator_id" = $2)
    AND ("ApiKey"."environment" = $3)
  )
LIMIT
  1;

-- ApiKeysRepository.roll
START TRANSACTION;

UPDATE api_keys
SET
  expires_at = least(coalesce(expires_at, $2), $2)
WHERE
  id = $1
  AND revoked_at IS NULL
  AND (
    expires_at IS NULL
    OR expires_at > $3
  )
RETURNING
  id;

COMMIT;

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
  "ApiKey"."revoked_at" AS "ApiKey_revoked_at",
  "ApiKey"."expires_at" AS "ApiKey_expires_at",
  "ApiKey"."last_used_at" AS "ApiKey_last_used_at"
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
  "ApiKey"."revoked_at" AS "ApiKey_revoked_at",
  "ApiKey"."expires_at" AS "ApiKey_expires_at",
  "ApiKey"."last_used_at" AS "ApiKey_last_used_at"
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
  "ApiKey"."revoked_at" AS "ApiKey_revoked_at",
  "ApiKey"."expires_at" AS "ApiKey_expires_at",
  "ApiKey"."last_used_at" AS "ApiKey_last_used_at"
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

-- ApiKeysRepository.noteUsed
UPDATE api_keys
SET
  last_used_at = $2
WHERE
  id = ANY ($1::uuid[])
  AND (
    last_used_at IS NULL
    OR last_used_at < $2
  );
