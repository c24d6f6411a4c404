-- Written by `npm run sql` from server/src/webhooks/webhook-endpoints.repository.ts: do not edit.

-- WebhookEndpointsRepository.page
SELECT
  "e"."id" AS "e_id",
  "e"."integrator_id" AS "e_integrator_id",
  "e"."environment" AS "e_environment",
  "e"."url" AS "e_url",
  "e"."description" AS "e_description",
  "e"."enabled" AS "e_enabled",
  "e"."disabled_reason" AS "e_disabled_reason",
  "e"."disabled_at" AS "e_disabled_at",
  "e"."permissions" AS "e_permissions",
  "e"."enabled_events" AS "e_enabled_events",
  "e"."api_key_id" AS "e_api_key_id",
  "e"."secret" AS "e_secret",
  "e"."previous_secret" AS "e_previous_secret",
  "e"."previous_secret_expires_at" AS "e_previous_secret_expires_at",
  "e"."failing_since" AS "e_failing_since",
  "e"."created_at" AS "e_created_at",
  "e"."updated_at" AS "e_updated_at"
FROM
  "webhook_endpoints" "e"
WHERE
  "e"."integrator_id" = $1
  AND "e"."environment" = $2
ORDER BY
  "e"."created_at" ASC,
  "e"."id" ASC
LIMIT
  26;

-- WebhookEndpointsRepository.disabledByReason
SELECT
  disabled_reason AS reason,
  count(*)::int AS endpoints
FROM
  webhook_endpoints
WHERE
  NOT enabled
GROUP BY
  disabled_reason
ORDER BY
  disabled_reason;

-- WebhookEndpointsRepository.all
SELECT
  "WebhookEndpoint"."id" AS "WebhookEndpoint_id",
  "WebhookEndpoint"."integrator_id" AS "WebhookEndpoint_integrator_id",
  "WebhookEndpoint"."environment" AS "WebhookEndpoint_environment",
  "WebhookEndpoint"."url" AS "WebhookEndpoint_url",
  "WebhookEndpoint"."description" AS "WebhookEndpoint_description",
  "WebhookEndpoint"."enabled" AS "WebhookEndpoint_enabled",
  "WebhookEndpoint"."disabled_reason" AS "WebhookEndpoint_disabled_reason",
  "WebhookEndpoint"."disabled_at" AS "WebhookEndpoint_disabled_at",
  "WebhookEndpoint"."permissions" AS "WebhookEndpoint_permissions",
  "WebhookEndpoint"."enabled_events" AS "WebhookEndpoint_enabled_events",
  "WebhookEndpoint"."api_key_id" AS "WebhookEndpoint_api_key_id",
  "WebhookEndpoint"."secret" AS "WebhookEndpoint_secret",
  "WebhookEndpoint"."previous_secret" AS "WebhookEndpoint_previous_secret",
  "WebhookEndpoint"."previous_secret_expires_at" AS "WebhookEndpoint_previous_secret_expires_at",
  "WebhookEndpoint"."failing_since" AS "WebhookEndpoint_failing_since",
  "WebhookEndpoint"."created_at" AS "WebhookEndpoint_created_at",
  "WebhookEndpoint"."updated_at" AS "WebhookEndpoint_updated_at"
FROM
  "webhook_endpoints" "WebhookEndpoint"
WHERE
  (("WebhookEndpoint"."integrator_id" = $1))
ORDER BY
  "WebhookEndpoint"."created_at" ASC,
  "WebhookEndpoint"."id" ASC;

-- WebhookEndpointsRepository.integratorExists
SELECT
  1 AS "row_exists"
FROM
  (
    SELECT
      1 AS dummy_column
  ) "dummy_table"
WHERE
  EXISTS (
    SELECT
      1
    FROM
      "integrators" "Integrator"
    WHERE
      (("Integrator"."id" = $1))
  )
LIMIT
  1;

-- WebhookEndpointsRepository.byId
SELECT
  "WebhookEndpoint"."id" AS "WebhookEndpoint_id",
  "WebhookEndpoint"."integrator_id" AS "WebhookEndpoint_integrator_id",
  "WebhookEndpoint"."environment" AS "WebhookEndpoint_environment",
  "WebhookEndpoint"."url" AS "WebhookEndpoint_url",
  "WebhookEndpoint"."description" AS "WebhookEndpoint_description",
  "WebhookEndpoint"."enabled" AS "WebhookEndpoint_enabled",
  "WebhookEndpoint"."disabled_reason" AS "WebhookEndpoint_disabled_reason",
  "WebhookEndpoint"."disabled_at" AS "WebhookEndpoint_disabled_at",
  "WebhookEndpoint"."permissions" AS "WebhookEndpoint_permissions",
  "WebhookEndpoint"."enabled_events" AS "WebhookEndpoint_enabled_events",
  "WebhookEndpoint"."api_key_id" AS "WebhookEndpoint_api_key_id",
  "WebhookEndpoint"."secret" AS "WebhookEndpoint_secret",
  "WebhookEndpoint"."previous_secret" AS "WebhookEndpoint_previous_secret",
  "WebhookEndpoint"."previous_secret_expires_at" AS "WebhookEndpoint_previous_secret_expires_at",
  "WebhookEndpoint"."failing_since" AS "WebhookEndpoint_failing_since",
  "WebhookEndpoint"."created_at" AS "WebhookEndpoint_created_at",
  "WebhookEndpoint"."updated_at" AS "WebhookEndpoint_updated_at"
FROM
  "webhook_endpoints" "WebhookEndpoint"
WHERE
  (("WebhookEndpoint"."id" = $1))
LIMIT
  1;

-- WebhookEndpointsRepository.save
SELECT
  "WebhookEndpoint"."id" AS "WebhookEndpoint_id",
  "WebhookEndpoint"."integrator_id" AS "WebhookEndpoint_integrator_id",
  "WebhookEndpoint"."environment" AS "WebhookEndpoint_environment",
  "WebhookEndpoint"."url" AS "WebhookEndpoint_url",
  "WebhookEndpoint"."description" AS "WebhookEndpoint_description",
  "WebhookEndpoint"."enabled" AS "WebhookEndpoint_enabled",
  "WebhookEndpoint"."disabled_reason" AS "WebhookEndpoint_disabled_reason",
  "WebhookEndpoint"."disabled_at" AS "WebhookEndpoint_disabled_at",
  "WebhookEndpoint"."permissions" AS "WebhookEndpoint_permissions",
  "WebhookEndpoint"."enabled_events" AS "WebhookEndpoint_enabled_events",
  "WebhookEndpoint"."api_key_id" AS "WebhookEndpoint_api_key_id",
  "WebhookEndpoint"."secret" AS "WebhookEndpoint_secret",
  "WebhookEndpoint"."previous_secret" AS "WebhookEndpoint_previous_secret",
  "WebhookEndpoint"."previous_secret_expires_at" AS "WebhookEndpoint_previous_secret_expires_at",
  "WebhookEndpoint"."failing_since" AS "WebhookEndpoint_failing_since",
  "WebhookEndpoint"."created_at" AS "WebhookEndpoint_created_at",
  "WebhookEndpoint"."updated_at" AS "WebhookEndpoint_updated_at"
FROM
  "webhook_endpoints" "WebhookEndpoint"
WHERE
  "WebhookEndpoint"."id" = $1;

INSERT INTO
  "webhook_endpoints" (
    "id",
    "integrator_id",
    "environment",
    "url",
    "description",
    "enabled",
    "disabled_reason",
    "disabled_at",
    "permissions",
    "enabled_events",
    "api_key_id",
    "secret",
    "previous_secret",
    "previous_secret_expires_at",
    "failing_since",
    "created_at",
    "updated_at"
  )
VALUES
  (
    $1,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    $2,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "created_at",
  "updated_at";

-- WebhookEndpointsRepository.delete
DELETE FROM "webhook_endpoints"
WHERE
  "id" = $1;

-- WebhookEndpointsRepository.recordHealth
WITH
  o AS (
    SELECT
      *
    FROM
      unnest(
        $1::uuid[],
        $2::bool[],
        $3::timestamptz[],
        $4::bool[]
      ) AS o (id, succeeded, failed_at, gone)
  ),
  before AS (
    SELECT
      id,
      enabled
    FROM
      webhook_endpoints
    WHERE
      id IN (
        SELECT
          id
        FROM
          o
      )
    FOR UPDATE
  ),
  changed AS (
    UPDATE webhook_endpoints e
    SET
      failing_since = CASE
        WHEN o.succeeded THEN NULL
        ELSE coalesce(e.failing_since, o.failed_at)
      END,
      enabled = e.enabled
      AND NOT (
        o.gone
        OR (
          NOT o.succeeded
          AND coalesce(e.failing_since, o.failed_at) < $5
        )
      ),
      disabled_reason = CASE
        WHEN NOT e.enabled THEN e.disabled_reason
        WHEN o.gone THEN 'gone'
        WHEN NOT o.succeeded
        AND coalesce(e.failing_since, o.failed_at) < $5 THEN 'failing'
      END,
      disabled_at = CASE
        WHEN NOT e.enabled THEN e.disabled_at
        WHEN o.gone
        OR (
          NOT o.succeeded
          AND coalesce(e.failing_since, o.failed_at) < $5
        ) THEN now()
      END
    FROM
      o
      JOIN before b ON b.id = o.id
    WHERE
      e.id = o.id
    RETURNING
      e.id,
      e.url,
      e.failing_since,
      e.disabled_reason,
      e.enabled,
      e.integrator_id,
      b.enabled AS was_enabled
  )
SELECT
  c.id,
  c.url,
  c.failing_since,
  c.disabled_reason,
  i.contact_email,
  i.name
FROM
  changed c
  JOIN integrators i ON i.id = c.integrator_id
WHERE
  c.was_enabled
  AND NOT c.enabled;
