-- Written by `npm run sql` from server/src/reconciliations/reconciliations.repository.ts: do not edit.

-- ReconciliationsRepository.page
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."flow_id" AS "r_flow_id",
  "r"."transaction_id" AS "r_transaction_id",
  "r"."amount" AS "r_amount",
  "r"."currency" AS "r_currency",
  "r"."created_at" AS "r_created_at"
FROM
  "reconciliations" "r"
WHERE
  "r"."company_id" = $1
ORDER BY
  "r"."created_at" DESC,
  "r"."id" DESC
LIMIT
  26;

-- ReconciliationsRepository.findOwned
SELECT
  "Reconciliation"."id" AS "Reconciliation_id",
  "Reconciliation"."company_id" AS "Reconciliation_company_id",
  "Reconciliation"."flow_id" AS "Reconciliation_flow_id",
  "Reconciliation"."transaction_id" AS "Reconciliation_transaction_id",
  "Reconciliation"."amount" AS "Reconciliation_amount",
  "Reconciliation"."currency" AS "Reconciliation_currency",
  "Reconciliation"."created_at" AS "Reconciliation_created_at"
FROM
  "reconciliations" "Reconciliation"
WHERE
  (
    ("Reconciliation"."id" = $1)
    AND ("Reconciliation"."company_id" = $2)
  )
LIMIT
  1;

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
      "reconciliations" "Reconciliation"
    WHERE
      (("Reconciliation"."id" = $1))
  )
LIMIT
  1;

-- ReconciliationsRepository.linked
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
      "reconciliations" "Reconciliation"
    WHERE
      (
        ("Reconciliation"."flow_id" = $1)
        AND ("Reconciliation"."transaction_id" = $2)
      )
  )
LIMIT
  1;

-- ReconciliationsRepository.remaining
SELECT
  (
    t.amount - coalesce(
      (
        SELECT
          sum(r.amount)
        FROM
          reconciliations r
        WHERE
          r.transaction_id = t.id
      ),
      0
    )
  )::text AS transaction,
  (
    f.amount - coalesce(
      (
        SELECT
          sum(r.amount)
        FROM
          reconciliations r
        WHERE
          r.flow_id = f.id
      ),
      0
    )
  )::text AS flow
FROM
  transactions t,
  flows f
WHERE
  t.id = $1
  AND f.id = $2;

-- ReconciliationsRepository.insert
INSERT INTO
  "reconciliations" (
    "id",
    "company_id",
    "flow_id",
    "transaction_id",
    "amount",
    "currency",
    "created_at"
  )
VALUES
  (DEFAULT, $1, $2, $3, $4, $5, DEFAULT)
RETURNING
  "id",
  "created_at";

-- ReconciliationsRepository.delete
DELETE FROM "reconciliations"
WHERE
  (
    "company_id" = $1
    AND "id" = $2
  );

-- ReconciliationsRepository.identifiedPairs
SELECT
  t.id AS transaction_id,
  f.id AS flow_id
FROM
  transactions t
  JOIN invoices i ON i.company_id = t.company_id
  AND i.reconciliation_identifier IS NOT NULL
  AND strpos(
    upper(t.description),
    upper(i.reconciliation_identifier)
  ) > 0
  JOIN flows f ON f.document_id = i.document_id
  AND f.payment_status = 'TO_PAY'
WHERE
  t.company_id = $1
  AND t.id = ANY ($2::uuid[])
ORDER BY
  t.date,
  t.id,
  f.expected_payment_date NULLS LAST,
  f.created_at,
  f.id;

-- ReconciliationsRepository.allocationRows
SELECT
  t.id,
  t.amount::text AS amount,
  sum(r.amount)::text AS allocated
FROM
  transactions t
  JOIN reconciliations r ON r.transaction_id = t.id
WHERE
  t.company_id = $1
GROUP BY
  t.id;

SELECT
  r.id,
  r.amount::text AS amount,
  r.currency,
  f.currency AS flow_currency,
  t.currency AS transaction_currency,
  t.type,
  d.direction,
  d.type AS document_type
FROM
  reconciliations r
  JOIN flows f ON f.id = r.flow_id
  JOIN transactions t ON t.id = r.transaction_id
  JOIN documents d ON d.id = f.document_id
WHERE
  r.company_id = $1;

SELECT
  f.id,
  f.amount::text AS amount,
  f.paid_amount::text AS paid_amount,
  coalesce(sum(r.amount), 0)::text AS allocated,
  count(r.id)::int AS links,
  f.payment_status
FROM
  flows f
  LEFT JOIN reconciliations r ON r.flow_id = f.id
WHERE
  f.company_id = $1
GROUP BY
  f.id;

SELECT
  d.id,
  d.version,
  coalesce(
    json_agg(
      json_build_object(
        'version',
        (e.payload ->> 'version')::int,
        'updated_at',
        e.payload ->> 'updated_at',
        'created_at',
        e.created_at
      )
      ORDER BY
        e.created_at,
        e.id
    ) FILTER (
      WHERE
        e.id IS NOT NULL
    ),
    '[]'
  ) AS events
FROM
  documents d
  LEFT JOIN events e ON e.company_id = d.company_id
  AND e.type = 'document.updated'
  AND e.payload ->> 'id' = d.id::text
WHERE
  d.company_id = $1
GROUP BY
  d.id;
