-- Written by `npm run sql` from server/src/deliveries/deliveries.repository.ts: do not edit.

-- DeliveriesRepository.fanOut
WITH
  ev AS (
    SELECT
      id,
      company_id,
      type,
      payload ->> 'id' AS subject,
      created_at
    FROM
      events
    WHERE
      dispatched_at IS NULL
    ORDER BY
      created_at,
      id
    LIMIT
      $1
    FOR UPDATE
      SKIP LOCKED
  ),
  fresh AS (
    SELECT
      e.id AS endpoint_id,
      ev.id AS event_id,
      ev.subject AS ordering_key,
      ev.created_at AS ordering_at
    FROM
      ev
      JOIN company_grants g ON g.company_id = ev.company_id
      JOIN webhook_endpoints e ON e.integrator_id = g.integrator_id
      AND e.environment = $2
      AND e.enabled
      AND (
        '*' = ANY (e.enabled_events)
        OR ev.type = ANY (e.enabled_events)
      )
    WHERE
      EXISTS (
        SELECT
          1
        FROM
          unnest($3::text[], $4::text[]) AS r (type, permission)
        WHERE
          r.type = ev.type
          AND r.permission = ANY (e.permissions)
      )
  ),
  fanned AS (
    INSERT INTO
      deliveries (
        channel,
        endpoint_id,
        event_id,
        ordering_key,
        ordering_at,
        waiting
      )
    SELECT
      'webhook',
      f.endpoint_id,
      f.event_id,
      f.ordering_key,
      f.ordering_at,
      (
        f.ordering_key IS NOT NULL
        AND (
          EXISTS (
            SELECT
              1
            FROM
              deliveries p
            WHERE
              p.endpoint_id = f.endpoint_id
              AND p.ordering_key = f.ordering_key
              AND p.status = 'pending'
              AND p.attempts = 0
              AND p.ordering_at < f.ordering_at
          )
          OR EXISTS (
            SELECT
              1
            FROM
              events pe
            WHERE
              pe.dispatched_at IS NULL
              AND (pe.payload ->> 'id') = f.ordering_key
              AND pe.created_at < f.ordering_at
          )
        )
      )
    FROM
      fresh f
    ON CONFLICT (endpoint_id, event_id) DO NOTHING
  )
UPDATE events
SET
  dispatched_at = now()
WHERE
  id IN (
    SELECT
      id
    FROM
      ev
  );

-- DeliveriesRepository.claimDue
START TRANSACTION;

SELECT
  set_config('enable_bitmapscan', 'off', true),
  set_config('enable_seqscan', 'off', true);

WITH
  due_0 AS (
    SELECT
      d.id,
      d.claim_id AS lost_claim,
      d.claimed_at AS lost_at,
      $7::int AS lease_ms
    FROM
      deliveries d
      LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE
      d.status = 'pending'
      AND NOT d.waiting
      AND (
        d.endpoint_id IS NULL
        OR e.enabled
      )
      AND d.next_attempt_at <= $4
      AND d.channel = $5
      AND NOT (d.id = ANY ($2::uuid[]))
    ORDER BY
      d.next_attempt_at
    LIMIT
      $6
    FOR UPDATE OF
      d SKIP LOCKED
  ),
  due_1 AS (
    SELECT
      d.id,
      d.claim_id AS lost_claim,
      d.claimed_at AS lost_at,
      $10::int AS lease_ms
    FROM
      deliveries d
      LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE
      d.status = 'pending'
      AND NOT d.waiting
      AND (
        d.endpoint_id IS NULL
        OR e.enabled
      )
      AND d.next_attempt_at <= $4
      AND d.channel = $8
      AND NOT (d.id = ANY ($2::uuid[]))
    ORDER BY
      d.next_attempt_at
    LIMIT
      $9
    FOR UPDATE OF
      d SKIP LOCKED
  ),
  due AS (
    SELECT
      *
    FROM
      due_0
    UNION ALL
    SELECT
      *
    FROM
      due_1
  ),
  lost AS (
    INSERT INTO
      delivery_attempts (
        delivery_id,
        attempted_at,
        outcome,
        duration_ms,
        error
      )
    SELECT
      id,
      coalesce(lost_at, $4),
      'unknown',
      0,
      $3
    FROM
      due
    WHERE
      lost_claim IS NOT NULL
  ),
  claimed AS (
    UPDATE deliveries d
    SET
      next_attempt_at = $4::timestamptz + make_interval(secs => due.lease_ms / 1000.0),
      claim_id = $1,
      claimed_at = $4
    FROM
      due
    WHERE
      d.id = due.id
    RETURNING
      d.id,
      d.channel,
      d.attempts,
      d.message,
      d.endpoint_id,
      d.event_id
  )
SELECT
  c.id,
  c.channel,
  c.attempts,
  c.message,
  e.id AS endpoint_id,
  e.integrator_id,
  e.url,
  e.permissions,
  e.secret,
  e.previous_secret,
  e.previous_secret_expires_at,
  e.failing_since,
  e.updated_at,
  ev.id AS event_id,
  ev.company_id,
  ev.type,
  ev.api_version,
  ev.created_at AS event_created_at,
  -- An event goes to many endpoints: its payload is sent (and parsed) once per claim.
  CASE
    WHEN row_number() OVER (
      PARTITION BY
        ev.id
    ) = 1 THEN ev.payload
  END AS payload
FROM
  claimed c
  LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id
  LEFT JOIN events ev ON ev.id = c.event_id;

COMMIT;

-- DeliveriesRepository.backlog
SELECT
  count(*)::int AS waiting,
  min(created_at) AS oldest
FROM
  events
WHERE
  dispatched_at IS NULL;

SELECT
  d.channel,
  count(*)::int AS count,
  count(*) FILTER (
    WHERE
      d.status = 'pending'
      AND NOT d.waiting
      AND (
        d.endpoint_id IS NULL
        OR e.enabled
      )
      AND d.next_attempt_at < $1
  )::int AS overdue
FROM
  deliveries d
  LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
WHERE
  d.status = 'pending'
  AND NOT d.waiting
GROUP BY
  d.channel;

SELECT
  channel,
  count(*)::int AS count
FROM
  deliveries
WHERE
  waiting
GROUP BY
  channel;

SELECT
  channel,
  count(*)::int AS count
FROM
  deliveries
WHERE
  status = 'failed'
  AND completed_at >= $1
GROUP BY
  channel;

-- DeliveriesRepository.releaseStranded
UPDATE deliveries d
SET
  waiting = false
WHERE
  d.id IN (
    SELECT DISTINCT
      ON (endpoint_id, ordering_key) id
    FROM
      deliveries
    WHERE
      waiting
    ORDER BY
      endpoint_id,
      ordering_key,
      ordering_at
  )
  AND d.waiting
  AND NOT (
    d.ordering_key IS NOT NULL
    AND (
      EXISTS (
        SELECT
          1
        FROM
          deliveries p
        WHERE
          p.endpoint_id = d.endpoint_id
          AND p.ordering_key = d.ordering_key
          AND p.status = 'pending'
          AND p.attempts = 0
          AND p.ordering_at < d.ordering_at
      )
      OR EXISTS (
        SELECT
          1
        FROM
          events pe
        WHERE
          pe.dispatched_at IS NULL
          AND (pe.payload ->> 'id') = d.ordering_key
          AND pe.created_at < d.ordering_at
      )
    )
  );

-- DeliveriesRepository.nextDueAt
SELECT
  min(
    (
      SELECT
        min(next_attempt_at)
      FROM
        deliveries
      WHERE
        channel = c
        AND status = 'pending'
        AND NOT waiting
        AND next_attempt_at > $2
    )
  ) AS at
FROM
  unnest($1::text[]) AS c;

-- DeliveriesRepository.giveBack
UPDATE deliveries
SET
  next_attempt_at = $3,
  claim_id = NULL
WHERE
  id = ANY ($1::uuid[])
  AND claim_id = $2;

-- DeliveriesRepository.recordAttempts
START TRANSACTION;

WITH
  o AS (
    SELECT
      *
    FROM
      unnest(
        $1::uuid[],
        $2::timestamptz[],
        $3::text[],
        $4::int[],
        $5::int[],
        $6::text[],
        $7::text[],
        $8::text[],
        $9::timestamptz[],
        $10::uuid[]
      ) AS o (
        delivery_id,
        attempted_at,
        outcome,
        duration_ms,
        response_status,
        response_body,
        error,
        status,
        next_attempt_at,
        claim_id
      )
    WHERE
      EXISTS (
        SELECT
          1
        FROM
          deliveries d
        WHERE
          d.id = delivery_id
      )
  ),
  attempts AS (
    INSERT INTO
      delivery_attempts (
        delivery_id,
        attempted_at,
        outcome,
        duration_ms,
        response_status,
        response_body,
        error
      )
    SELECT
      delivery_id,
      attempted_at,
      outcome,
      duration_ms,
      response_status,
      response_body,
      error
    FROM
      o
  )
UPDATE deliveries d
SET
  attempts = d.attempts + 1,
  status = o.status,
  last_attempt_at = o.attempted_at,
  next_attempt_at = coalesce(o.next_attempt_at, d.next_attempt_at),
  completed_at = CASE
    WHEN o.status = 'pending' THEN NULL
    ELSE $11::timestamptz
  END,
  claim_id = NULL
FROM
  o
WHERE
  d.id = o.delivery_id
  AND d.claim_id = o.claim_id
RETURNING
  d.endpoint_id,
  d.ordering_key,
  d.attempts;

COMMIT;

-- DeliveriesRepository.enqueueMail
INSERT INTO
  "deliveries" (
    "id",
    "channel",
    "endpoint_id",
    "event_id",
    "message",
    "ordering_key",
    "ordering_at",
    "status",
    "waiting",
    "attempts",
    "next_attempt_at",
    "last_attempt_at",
    "completed_at",
    "created_at"
  )
VALUES
  (
    DEFAULT,
    $1,
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
    DEFAULT
  )
RETURNING
  "id",
  "created_at";

-- DeliveriesRepository.grantedEventType
SELECT
  ev.type
FROM
  events ev
  JOIN company_grants g ON g.company_id = ev.company_id
  AND g.integrator_id = $1
WHERE
  ev.id = $2;

-- DeliveriesRepository.replayWebhook
START TRANSACTION;

INSERT INTO
  deliveries (
    channel,
    endpoint_id,
    event_id,
    ordering_key,
    ordering_at
  )
SELECT
  'webhook',
  $1,
  ev.id,
  ev.payload ->> 'id',
  ev.created_at
FROM
  events ev
  JOIN company_grants g ON g.company_id = ev.company_id
  AND g.integrator_id = $2
WHERE
  ev.id = $3
ON CONFLICT (endpoint_id, event_id) DO UPDATE
SET
  status = 'pending',
  attempts = 0,
  waiting = false,
  next_attempt_at = now(),
  completed_at = NULL
WHERE
  deliveries.status <> 'pending'
RETURNING
  id;

SELECT
  pg_notify ($1, $2);

SELECT
  "Delivery"."id" AS "Delivery_id",
  "Delivery"."channel" AS "Delivery_channel",
  "Delivery"."endpoint_id" AS "Delivery_endpoint_id",
  "Delivery"."event_id" AS "Delivery_event_id",
  "Delivery"."message" AS "Delivery_message",
  "Delivery"."ordering_key" AS "Delivery_ordering_key",
  "Delivery"."ordering_at" AS "Delivery_ordering_at",
  "Delivery"."status" AS "Delivery_status",
  "Delivery"."waiting" AS "Delivery_waiting",
  "Delivery"."attempts" AS "Delivery_attempts",
  "Delivery"."next_attempt_at" AS "Delivery_next_attempt_at",
  "Delivery"."last_attempt_at" AS "Delivery_last_attempt_at",
  "Delivery"."completed_at" AS "Delivery_completed_at",
  "Delivery"."created_at" AS "Delivery_created_at"
FROM
  "deliveries" "Delivery"
WHERE
  (
    ("Delivery"."endpoint_id" = $1)
    AND ("Delivery"."event_id" = $2)
  )
LIMIT
  1;

COMMIT;

-- DeliveriesRepository.enqueueWebhookMessage
START TRANSACTION;

SELECT
  1
FROM
  webhook_endpoints
WHERE
  id = $1
FOR NO KEY UPDATE;

SELECT
  count(*)::int AS count,
  min(created_at) AS oldest
FROM
  deliveries
WHERE
  channel = 'webhook'
  AND endpoint_id = $1
  AND event_id IS NULL
  AND created_at > $2;

INSERT INTO
  deliveries (channel, endpoint_id, message)
VALUES
  ('webhook', $1, $2)
RETURNING
  id;

ROLLBACK;

-- DeliveriesRepository.resumeEndpoint
UPDATE deliveries
SET
  next_attempt_at = least(next_attempt_at, now())
WHERE
  endpoint_id = $1
  AND status = 'pending'
  AND claim_id IS NULL;

SELECT
  pg_notify ($1, $2);

-- DeliveriesRepository.pageOfEndpoint
SELECT
  "d"."id" AS "d_id",
  "d"."channel" AS "d_channel",
  "d"."endpoint_id" AS "d_endpoint_id",
  "d"."event_id" AS "d_event_id",
  "d"."message" AS "d_message",
  "d"."ordering_key" AS "d_ordering_key",
  "d"."ordering_at" AS "d_ordering_at",
  "d"."status" AS "d_status",
  "d"."waiting" AS "d_waiting",
  "d"."attempts" AS "d_attempts",
  "d"."next_attempt_at" AS "d_next_attempt_at",
  "d"."last_attempt_at" AS "d_last_attempt_at",
  "d"."completed_at" AS "d_completed_at",
  "d"."created_at" AS "d_created_at"
FROM
  "deliveries" "d"
WHERE
  "d"."endpoint_id" = $1
ORDER BY
  "d"."created_at" DESC,
  "d"."id" DESC
LIMIT
  26;

-- DeliveriesRepository.load
SELECT
  "r"."id" AS "r_id",
  "r"."channel" AS "r_channel",
  "r"."endpoint_id" AS "r_endpoint_id",
  "r"."event_id" AS "r_event_id",
  "r"."message" AS "r_message",
  "r"."ordering_key" AS "r_ordering_key",
  "r"."ordering_at" AS "r_ordering_at",
  "r"."status" AS "r_status",
  "r"."waiting" AS "r_waiting",
  "r"."attempts" AS "r_attempts",
  "r"."next_attempt_at" AS "r_next_attempt_at",
  "r"."last_attempt_at" AS "r_last_attempt_at",
  "r"."completed_at" AS "r_completed_at",
  "r"."created_at" AS "r_created_at"
FROM
  "deliveries" "r"
WHERE
  "r"."id" IN ($1);

-- DeliveriesRepository.withEventsAndAttempts
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."type" AS "r_type",
  "r"."payload" AS "r_payload",
  "r"."created_at" AS "r_created_at",
  "r"."transaction_id" AS "r_transaction_id",
  "r"."position" AS "r_position",
  "r"."document_id" AS "r_document_id",
  "r"."api_version" AS "r_api_version",
  "r"."dispatched_at" AS "r_dispatched_at"
FROM
  "events" "r"
WHERE
  "r"."id" IN ($1);

SELECT
  "a"."id" AS "a_id",
  "a"."delivery_id" AS "a_delivery_id",
  "a"."attempted_at" AS "a_attempted_at",
  "a"."outcome" AS "a_outcome",
  "a"."duration_ms" AS "a_duration_ms",
  "a"."response_status" AS "a_response_status",
  "a"."response_body" AS "a_response_body",
  "a"."error" AS "a_error"
FROM
  "delivery_attempts" "a"
WHERE
  "a"."delivery_id" IN ($1)
ORDER BY
  "a"."attempted_at" ASC,
  "a"."id" ASC;

-- DeliveriesRepository.deleteCompleted
DELETE FROM deliveries d
WHERE
  d.id IN (
    SELECT
      id
    FROM
      deliveries
    WHERE
      status <> 'pending'
      AND completed_at < $1
      AND status = $2
      AND NOT EXISTS (
        SELECT
          1
        FROM
          invoice_shares s
        WHERE
          s.delivery_id = deliveries.id
      )
    LIMIT
      $3
  )
  AND d.status = $2
  AND d.completed_at < $1;

-- DeliveriesRepository.deletePendingOfDisabledEndpoints
DELETE FROM deliveries d
WHERE
  d.id IN (
    SELECT
      d.id
    FROM
      webhook_endpoints e
      JOIN deliveries d ON d.endpoint_id = e.id
    WHERE
      NOT e.enabled
      AND d.status = 'pending'
      AND d.created_at < $1
      AND d.claim_id IS NULL
    LIMIT
      $2
  )
  AND d.status = 'pending'
  AND d.created_at < $1
  AND d.claim_id IS NULL
  AND NOT (
    SELECT
      enabled
    FROM
      webhook_endpoints e
    WHERE
      e.id = d.endpoint_id
  );

-- DeliveriesRepository.deleteFannedOutEvents
DELETE FROM events ev
WHERE
  ev.id IN (
    SELECT
      id
    FROM
      events
    WHERE
      created_at < $1
      AND dispatched_at IS NOT NULL
      AND NOT EXISTS (
        SELECT
          1
        FROM
          deliveries d
        WHERE
          d.event_id = events.id
      )
    LIMIT
      $2
  )
  AND NOT EXISTS (
    SELECT
      1
    FROM
      deliveries d
    WHERE
      d.event_id = ev.id
  );
