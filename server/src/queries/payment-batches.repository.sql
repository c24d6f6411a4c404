-- Written by `npm run sql` from server/src/payments/payment-batches.repository.ts: do not edit.

-- PaymentBatchesRepository.page
SELECT
  "b"."id" AS "b_id",
  "b"."company_id" AS "b_company_id",
  "b"."account_id" AS "b_account_id",
  "b"."status" AS "b_status",
  "b"."message_id" AS "b_message_id",
  "b"."requested_execution_date" AS "b_requested_execution_date",
  "b"."debtor_name" AS "b_debtor_name",
  "b"."debtor_iban" AS "b_debtor_iban",
  "b"."debtor_bic" AS "b_debtor_bic",
  "b"."payment_count" AS "b_payment_count",
  "b"."control_sum" AS "b_control_sum",
  "b"."currency" AS "b_currency",
  "b"."created_at" AS "b_created_at",
  "b"."updated_at" AS "b_updated_at"
FROM
  "payment_batches" "b"
WHERE
  "b"."company_id" = $1
ORDER BY
  "b"."created_at" DESC,
  "b"."id" DESC
LIMIT
  26;

-- PaymentBatchesRepository.findOwned
SELECT
  "PaymentBatch"."id" AS "PaymentBatch_id",
  "PaymentBatch"."company_id" AS "PaymentBatch_company_id",
  "PaymentBatch"."account_id" AS "PaymentBatch_account_id",
  "PaymentBatch"."status" AS "PaymentBatch_status",
  "PaymentBatch"."message_id" AS "PaymentBatch_message_id",
  "PaymentBatch"."requested_execution_date" AS "PaymentBatch_requested_execution_date",
  "PaymentBatch"."debtor_name" AS "PaymentBatch_debtor_name",
  "PaymentBatch"."debtor_iban" AS "PaymentBatch_debtor_iban",
  "PaymentBatch"."debtor_bic" AS "PaymentBatch_debtor_bic",
  "PaymentBatch"."payment_count" AS "PaymentBatch_payment_count",
  "PaymentBatch"."control_sum" AS "PaymentBatch_control_sum",
  "PaymentBatch"."currency" AS "PaymentBatch_currency",
  "PaymentBatch"."created_at" AS "PaymentBatch_created_at",
  "PaymentBatch"."updated_at" AS "PaymentBatch_updated_at"
FROM
  "payment_batches" "PaymentBatch"
WHERE
  (
    ("PaymentBatch"."id" = $1)
    AND ("PaymentBatch"."company_id" = $2)
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
      "payment_batches" "PaymentBatch"
    WHERE
      (("PaymentBatch"."id" = $1))
  )
LIMIT
  1;

-- PaymentBatchesRepository.flowFacts
SELECT
  f.id,
  f.company_id,
  f.currency,
  f.payment_status,
  (f.amount - f.paid_amount)::text AS remaining,
  d.direction,
  d.type
FROM
  flows f
  JOIN documents d ON d.id = f.document_id
WHERE
  f.id = ANY ($1::uuid[]);

-- PaymentBatchesRepository.create
SELECT
  "PaymentBatch"."id" AS "PaymentBatch_id",
  "PaymentBatch"."company_id" AS "PaymentBatch_company_id",
  "PaymentBatch"."account_id" AS "PaymentBatch_account_id",
  "PaymentBatch"."status" AS "PaymentBatch_status",
  "PaymentBatch"."message_id" AS "PaymentBatch_message_id",
  "PaymentBatch"."requested_execution_date" AS "PaymentBatch_requested_execution_date",
  "PaymentBatch"."debtor_name" AS "PaymentBatch_debtor_name",
  "PaymentBatch"."debtor_iban" AS "PaymentBatch_debtor_iban",
  "PaymentBatch"."debtor_bic" AS "PaymentBatch_debtor_bic",
  "PaymentBatch"."payment_count" AS "PaymentBatch_payment_count",
  "PaymentBatch"."control_sum" AS "PaymentBatch_control_sum",
  "PaymentBatch"."currency" AS "PaymentBatch_currency",
  "PaymentBatch"."created_at" AS "PaymentBatch_created_at",
  "PaymentBatch"."updated_at" AS "PaymentBatch_updated_at"
FROM
  "payment_batches" "PaymentBatch"
WHERE
  "PaymentBatch"."id" = $1;

INSERT INTO
  "payment_batches" (
    "id",
    "company_id",
    "account_id",
    "status",
    "message_id",
    "requested_execution_date",
    "debtor_name",
    "debtor_iban",
    "debtor_bic",
    "payment_count",
    "control_sum",
    "currency",
    "created_at",
    "updated_at"
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "created_at",
  "updated_at";

-- PaymentBatchesRepository.paymentsOf
SELECT
  "PaymentBatchPayment"."id" AS "PaymentBatchPayment_id",
  "PaymentBatchPayment"."company_id" AS "PaymentBatchPayment_company_id",
  "PaymentBatchPayment"."batch_id" AS "PaymentBatchPayment_batch_id",
  "PaymentBatchPayment"."position" AS "PaymentBatchPayment_position",
  "PaymentBatchPayment"."end_to_end_id" AS "PaymentBatchPayment_end_to_end_id",
  "PaymentBatchPayment"."payee_name" AS "PaymentBatchPayment_payee_name",
  "PaymentBatchPayment"."iban" AS "PaymentBatchPayment_iban",
  "PaymentBatchPayment"."amount" AS "PaymentBatchPayment_amount",
  "PaymentBatchPayment"."currency" AS "PaymentBatchPayment_currency",
  "PaymentBatchPayment"."remittance_information" AS "PaymentBatchPayment_remittance_information"
FROM
  "payment_batch_payments" "PaymentBatchPayment"
WHERE
  (("PaymentBatchPayment"."batch_id" IN ($1)))
ORDER BY
  "PaymentBatchPayment"."batch_id" ASC,
  "PaymentBatchPayment"."position" ASC;
