-- Written by `npm run sql` from server/src/transactions/transactions.repository.ts: do not edit.

-- TransactionsRepository.page
SELECT
  "t"."id" AS "t_id",
  "t"."company_id" AS "t_company_id",
  "t"."account_id" AS "t_account_id",
  "t"."type" AS "t_type",
  "t"."amount" AS "t_amount",
  "t"."currency" AS "t_currency",
  "t"."booking_date_time" AS "t_booking_date_time",
  "t"."date" AS "t_date",
  "t"."value_date" AS "t_value_date",
  "t"."description" AS "t_description",
  "t"."clean_description" AS "t_clean_description",
  "t"."counterpart_name" AS "t_counterpart_name",
  "t"."category_id" AS "t_category_id",
  "t"."subcategory_id" AS "t_subcategory_id",
  "t"."created_at" AS "t_created_at"
FROM
  "transactions" "t"
WHERE
  "t"."company_id" = $1
ORDER BY
  "t"."date" DESC,
  "t"."id" DESC
LIMIT
  26;

-- TransactionsRepository.findOwned
SELECT
  "Transaction"."id" AS "Transaction_id",
  "Transaction"."company_id" AS "Transaction_company_id",
  "Transaction"."account_id" AS "Transaction_account_id",
  "Transaction"."type" AS "Transaction_type",
  "Transaction"."amount" AS "Transaction_amount",
  "Transaction"."currency" AS "Transaction_currency",
  "Transaction"."booking_date_time" AS "Transaction_booking_date_time",
  "Transaction"."date" AS "Transaction_date",
  "Transaction"."value_date" AS "Transaction_value_date",
  "Transaction"."description" AS "Transaction_description",
  "Transaction"."clean_description" AS "Transaction_clean_description",
  "Transaction"."counterpart_name" AS "Transaction_counterpart_name",
  "Transaction"."category_id" AS "Transaction_category_id",
  "Transaction"."subcategory_id" AS "Transaction_subcategory_id",
  "Transaction"."created_at" AS "Transaction_created_at"
FROM
  "transactions" "Transaction"
WHERE
  (
    ("Transaction"."id" = $1)
    AND ("Transaction"."company_id" = $2)
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
      "transactions" "Transaction"
    WHERE
      (("Transaction"."id" = $1))
  )
LIMIT
  1;

-- TransactionsRepository.lockOwned
SELECT
  "Transaction"."id" AS "Transaction_id",
  "Transaction"."company_id" AS "Transaction_company_id",
  "Transaction"."account_id" AS "Transaction_account_id",
  "Transaction"."type" AS "Transaction_type",
  "Transaction"."amount" AS "Transaction_amount",
  "Transaction"."currency" AS "Transaction_currency",
  "Transaction"."booking_date_time" AS "Transaction_booking_date_time",
  "Transaction"."date" AS "Transaction_date",
  "Transaction"."value_date" AS "Transaction_value_date",
  "Transaction"."description" AS "Transaction_description",
  "Transaction"."clean_description" AS "Transaction_clean_description",
  "Transaction"."counterpart_name" AS "Transaction_counterpart_name",
  "Transaction"."category_id" AS "Transaction_category_id",
  "Transaction"."subcategory_id" AS "Transaction_subcategory_id",
  "Transaction"."created_at" AS "Transaction_created_at"
FROM
  "transactions" "Transaction"
WHERE
  (
    ("Transaction"."id" = $1)
    AND ("Transaction"."company_id" = $2)
  )
LIMIT
  1
FOR NO KEY UPDATE;

SELECT
  "Transaction"."id" AS "Transaction_id",
  "Transaction"."company_id" AS "Transaction_company_id",
  "Transaction"."account_id" AS "Transaction_account_id",
  "Transaction"."type" AS "Transaction_type",
  "Transaction"."amount" AS "Transaction_amount",
  "Transaction"."currency" AS "Transaction_currency",
  "Transaction"."booking_date_time" AS "Transaction_booking_date_time",
  "Transaction"."date" AS "Transaction_date",
  "Transaction"."value_date" AS "Transaction_value_date",
  "Transaction"."description" AS "Transaction_description",
  "Transaction"."clean_description" AS "Transaction_clean_description",
  "Transaction"."counterpart_name" AS "Transaction_counterpart_name",
  "Transaction"."category_id" AS "Transaction_category_id",
  "Transaction"."subcategory_id" AS "Transaction_subcategory_id",
  "Transaction"."created_at" AS "Transaction_created_at"
FROM
  "transactions" "Transaction"
WHERE
  (
    ("Transaction"."id" = $1)
    AND ("Transaction"."company_id" = $2)
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
      "transactions" "Transaction"
    WHERE
      (("Transaction"."id" = $1))
  )
LIMIT
  1;

-- TransactionsRepository.insertWithEvents
WITH
  input AS (
    SELECT
      *
    FROM
      unnest(
        $1::uuid[],
        $2::uuid[],
        $3::uuid[],
        $4::text[],
        $5::numeric[],
        $6::text[],
        $7::date[],
        $8::date[],
        $9::timestamptz[],
        $10::text[],
        $11::text[],
        $12::text[]
      ) WITH ORDINALITY AS i (
        id,
        company_id,
        account_id,
        type,
        amount,
        currency,
        date,
        value_date,
        booking_date_time,
        description,
        clean_description,
        counterpart_name,
        n
      )
  ),
  t AS (
    INSERT INTO
      transactions (
        id,
        company_id,
        account_id,
        type,
        amount,
        currency,
        date,
        value_date,
        booking_date_time,
        description,
        clean_description,
        counterpart_name
      )
    SELECT
      id,
      company_id,
      account_id,
      type,
      amount,
      currency,
      date,
      value_date,
      booking_date_time,
      description,
      clean_description,
      counterpart_name
    FROM
      input
    ORDER BY
      n
    RETURNING
      *
  )
INSERT INTO
  events (
    company_id,
    type,
    payload,
    created_at,
    api_version
  )
SELECT
  t.company_id,
  $13,
  jsonb_build_object(
    'id',
    t.id,
    'account_id',
    t.account_id,
    'type',
    t.type,
    'amount',
    jsonb_build_object(
      'amount',
      t.amount::text,
      'currency',
      btrim(t.currency)
    ),
    'booking_date_time',
    to_char(
      t.booking_date_time AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
    ),
    'date',
    to_char(t.date, 'YYYY-MM-DD'),
    'value_date',
    to_char(t.value_date, 'YYYY-MM-DD'),
    'description',
    t.description,
    'clean_description',
    t.clean_description,
    'counterpart_name',
    t.counterpart_name,
    'created_at',
    to_char(
      t.created_at AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
    ),
    'category_id',
    t.category_id,
    'category',
    NULL::jsonb,
    'subcategory_id',
    t.subcategory_id,
    'subcategory',
    NULL::jsonb,
    'reconciliations',
    '[]'::jsonb
  ),
  t.created_at,
  $14
FROM
  t
  JOIN input ON input.id = t.id
ORDER BY
  input.n;

-- TransactionsRepository.lockForAllocation
SELECT
  1
FROM
  transactions
WHERE
  company_id = $1
  AND id = $2
FOR UPDATE;

-- TransactionsRepository.classify
UPDATE "transactions"
SET
  "category_id" = $1,
  "subcategory_id" = $2
WHERE
  (
    "company_id" = $3
    AND "id" = $4
  );

-- TransactionsRepository.inOrder
SELECT
  "t"."id" AS "t_id",
  "t"."company_id" AS "t_company_id",
  "t"."account_id" AS "t_account_id",
  "t"."type" AS "t_type",
  "t"."amount" AS "t_amount",
  "t"."currency" AS "t_currency",
  "t"."booking_date_time" AS "t_booking_date_time",
  "t"."date" AS "t_date",
  "t"."value_date" AS "t_value_date",
  "t"."description" AS "t_description",
  "t"."clean_description" AS "t_clean_description",
  "t"."counterpart_name" AS "t_counterpart_name",
  "t"."category_id" AS "t_category_id",
  "t"."subcategory_id" AS "t_subcategory_id",
  "t"."created_at" AS "t_created_at"
FROM
  "transactions" "t"
WHERE
  "t"."id" = ANY ($1);

-- TransactionsRepository.byIds
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."account_id" AS "r_account_id",
  "r"."type" AS "r_type",
  "r"."amount" AS "r_amount",
  "r"."currency" AS "r_currency",
  "r"."booking_date_time" AS "r_booking_date_time",
  "r"."date" AS "r_date",
  "r"."value_date" AS "r_value_date",
  "r"."description" AS "r_description",
  "r"."clean_description" AS "r_clean_description",
  "r"."counterpart_name" AS "r_counterpart_name",
  "r"."category_id" AS "r_category_id",
  "r"."subcategory_id" AS "r_subcategory_id",
  "r"."created_at" AS "r_created_at"
FROM
  "transactions" "r"
WHERE
  "r"."id" IN ($1);

-- TransactionsRepository.relations (category)
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."parent_id" AS "r_parent_id",
  "r"."name" AS "r_name",
  "r"."created_at" AS "r_created_at"
FROM
  "categories" "r"
WHERE
  "r"."id" IN ($1);

-- TransactionsRepository.relations (subcategory)
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."parent_id" AS "r_parent_id",
  "r"."name" AS "r_name",
  "r"."created_at" AS "r_created_at"
FROM
  "categories" "r"
WHERE
  "r"."id" IN ($1);

-- TransactionsRepository.relations (reconciliations.flow)
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
  "r"."transaction_id" IN ($1)
ORDER BY
  "r"."created_at" ASC,
  "r"."id" ASC;
