-- Written by `npm run sql` from server/src/events/event-reads.repository.ts: do not edit.

-- EventReadsRepository.page
SELECT
  "page".*
FROM
  unnest($3::uuid[]) AS "each_of" ("key")
  CROSS JOIN LATERAL (
    SELECT
      "e"."id" AS "e_id",
      "e"."company_id" AS "e_company_id",
      "e"."type" AS "e_type",
      "e"."payload" AS "e_payload",
      "e"."created_at" AS "e_created_at",
      "e"."transaction_id" AS "e_transaction_id",
      "e"."position" AS "e_position",
      "e"."document_id" AS "e_document_id",
      "e"."api_version" AS "e_api_version",
      "e"."dispatched_at" AS "e_dispatched_at"
    FROM
      "events" "e"
    WHERE
      "e"."type" IN ($1, $2)
      AND "e"."transaction_id" < CAST(
        CAST(pg_snapshot_xmin(pg_current_snapshot()) AS text) AS bigint
      )
      AND "e"."company_id" = "each_of"."key"
    ORDER BY
      "e"."transaction_id" ASC,
      "e"."position" ASC,
      "e"."id" ASC
    LIMIT
      26
  ) AS "page"
ORDER BY
  "page"."e_transaction_id" ASC,
  "page"."e_position" ASC,
  "page"."e_id" ASC
LIMIT
  26;

-- EventReadsRepository.find
SELECT
  "DomainEvent"."id" AS "DomainEvent_id",
  "DomainEvent"."company_id" AS "DomainEvent_company_id",
  "DomainEvent"."type" AS "DomainEvent_type",
  "DomainEvent"."payload" AS "DomainEvent_payload",
  "DomainEvent"."created_at" AS "DomainEvent_created_at",
  "DomainEvent"."transaction_id" AS "DomainEvent_transaction_id",
  "DomainEvent"."position" AS "DomainEvent_position",
  "DomainEvent"."document_id" AS "DomainEvent_document_id",
  "DomainEvent"."api_version" AS "DomainEvent_api_version",
  "DomainEvent"."dispatched_at" AS "DomainEvent_dispatched_at"
FROM
  "events" "DomainEvent"
WHERE
  (("DomainEvent"."id" = $1))
LIMIT
  1;
