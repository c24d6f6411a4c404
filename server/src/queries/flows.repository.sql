-- Written by `npm run sql` from server/src/flows/flows.repository.ts: do not edit.

-- FlowsRepository.page
SELECT
  "f"."id" AS "f_id",
  "f"."company_id" AS "f_company_id",
  "f"."document_id" AS "f_document_id",
  "f"."amount" AS "f_amount",
  "f"."currency" AS "f_currency",
  "f"."paid_amount" AS "f_paid_amount",
  "f"."payment_status" AS "f_payment_status",
  "f"."payment_method" AS "f_payment_method",
  "f"."expected_payment_date" AS "f_expected_payment_date",
  "f"."payment_date" AS "f_payment_date",
  "f"."created_at" AS "f_created_at",
  "f"."updated_at" AS "f_updated_at"
FROM
  "flows" "f"
WHERE
  "f"."company_id" = $1
  AND "f"."document_id" = $2
ORDER BY
  "f"."expected_payment_date" ASC NULLS LAST,
  "f"."created_at" ASC,
  "f"."id" ASC
LIMIT
  26;

-- FlowsRepository.findOwned
SELECT
  "Flow"."id" AS "Flow_id",
  "Flow"."company_id" AS "Flow_company_id",
  "Flow"."document_id" AS "Flow_document_id",
  "Flow"."amount" AS "Flow_amount",
  "Flow"."currency" AS "Flow_currency",
  "Flow"."paid_amount" AS "Flow_paid_amount",
  "Flow"."payment_status" AS "Flow_payment_status",
  "Flow"."payment_method" AS "Flow_payment_method",
  "Flow"."expected_payment_date" AS "Flow_expected_payment_date",
  "Flow"."payment_date" AS "Flow_payment_date",
  "Flow"."created_at" AS "Flow_created_at",
  "Flow"."updated_at" AS "Flow_updated_at"
FROM
  "flows" "Flow"
WHERE
  (
    ("Flow"."id" = $1)
    AND ("Flow"."company_id" = $2)
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
      "flows" "Flow"
    WHERE
      (("Flow"."id" = $1))
  )
LIMIT
  1;

-- FlowsRepository.find
SELECT
  "Flow"."id" AS "Flow_id",
  "Flow"."company_id" AS "Flow_company_id",
  "Flow"."document_id" AS "Flow_document_id",
  "Flow"."amount" AS "Flow_amount",
  "Flow"."currency" AS "Flow_currency",
  "Flow"."paid_amount" AS "Flow_paid_amount",
  "Flow"."payment_status" AS "Flow_payment_status",
  "Flow"."payment_method" AS "Flow_payment_method",
  "Flow"."expected_payment_date" AS "Flow_expected_payment_date",
  "Flow"."payment_date" AS "Flow_payment_date",
  "Flow"."created_at" AS "Flow_created_at",
  "Flow"."updated_at" AS "Flow_updated_at"
FROM
  "flows" "Flow"
WHERE
  (
    ("Flow"."company_id" = $1)
    AND ("Flow"."id" = $2)
  )
LIMIT
  1;

-- FlowsRepository.exists
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
      "flows" "Flow"
    WHERE
      (
        ("Flow"."company_id" = $1)
        AND ("Flow"."id" = $2)
      )
  )
LIMIT
  1;

-- FlowsRepository.byIds
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."document_id" AS "r_document_id",
  "r"."amount" AS "r_amount",
  "r"."currency" AS "r_currency",
  "r"."paid_amount" AS "r_paid_amount",
  "r"."payment_status" AS "r_payment_status",
  "r"."payment_method" AS "r_payment_method",
  "r"."expected_payment_date" AS "r_expected_payment_date",
  "r"."payment_date" AS "r_payment_date",
  "r"."created_at" AS "r_created_at",
  "r"."updated_at" AS "r_updated_at"
FROM
  "flows" "r"
WHERE
  "r"."id" IN ($1);

-- FlowsRepository.insert
INSERT INTO
  "flows" (
    "id",
    "company_id",
    "document_id",
    "amount",
    "currency",
    "paid_amount",
    "payment_status",
    "payment_method",
    "expected_payment_date",
    "payment_date",
    "created_at",
    "updated_at"
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
    $7,
    $8,
    $9,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "paid_amount",
  "created_at",
  "updated_at";

-- FlowsRepository.save
SELECT
  "Flow"."id" AS "Flow_id",
  "Flow"."company_id" AS "Flow_company_id",
  "Flow"."document_id" AS "Flow_document_id",
  "Flow"."amount" AS "Flow_amount",
  "Flow"."currency" AS "Flow_currency",
  "Flow"."paid_amount" AS "Flow_paid_amount",
  "Flow"."payment_status" AS "Flow_payment_status",
  "Flow"."payment_method" AS "Flow_payment_method",
  "Flow"."expected_payment_date" AS "Flow_expected_payment_date",
  "Flow"."payment_date" AS "Flow_payment_date",
  "Flow"."created_at" AS "Flow_created_at",
  "Flow"."updated_at" AS "Flow_updated_at"
FROM
  "flows" "Flow"
WHERE
  "Flow"."id" = $1;

INSERT INTO
  "flows" (
    "id",
    "company_id",
    "document_id",
    "amount",
    "currency",
    "paid_amount",
    "payment_status",
    "payment_method",
    "expected_payment_date",
    "payment_date",
    "created_at",
    "updated_at"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
RETURNING
  "id",
  "paid_amount",
  "created_at",
  "updated_at";

-- FlowsRepository.delete
DELETE FROM "flows"
WHERE
  (
    "company_id" = $1
    AND "id" = $2
  );

-- FlowsRepository.totals
SELECT
  (o.others + $3::numeric)::text AS total,
  d.gross_amount::text AS gross,
  greatest(d.gross_amount - o.others, 0)::text AS left
FROM
  documents d,
  LATERAL (
    SELECT
      coalesce(sum(f.amount), 0) AS others
    FROM
      flows f
    WHERE
      f.document_id = d.id
      AND f.id IS DISTINCT FROM $2::uuid
  ) o
WHERE
  d.id = $1;

-- FlowsRepository.allocated
SELECT
  count(r.id) > 0 AS reconciled,
  coalesce(sum(r.amount), 0)::text AS paid,
  f.amount::text AS amount,
  max(t.date)::text AS last_date
FROM
  flows f
  LEFT JOIN reconciliations r ON r.flow_id = f.id
  LEFT JOIN transactions t ON t.id = r.transaction_id
WHERE
  f.id = $1
GROUP BY
  f.id,
  f.amount;

-- FlowsRepository.settle
UPDATE "flows"
SET
  "paid_amount" = $1,
  "payment_status" = $2,
  "payment_date" = $3,
  "updated_at" = CURRENT_TIMESTAMP
WHERE
  "id" = $4;
