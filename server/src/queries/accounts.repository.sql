-- Written by `npm run sql` from server/src/accounts/accounts.repository.ts: do not edit.

-- AccountsRepository.page
SELECT
  "a"."id" AS "a_id",
  "a"."company_id" AS "a_company_id",
  "a"."nickname" AS "a_nickname",
  "a"."iban" AS "a_iban",
  "a"."currency" AS "a_currency",
  "a"."current_balance" AS "a_current_balance",
  "a"."available_balance" AS "a_available_balance",
  "a"."credit_limit" AS "a_credit_limit",
  "a"."balance_date" AS "a_balance_date",
  "a"."created_at" AS "a_created_at"
FROM
  "accounts" "a"
WHERE
  "a"."company_id" = $1
ORDER BY
  "a"."created_at" ASC,
  "a"."id" ASC
LIMIT
  26;

-- AccountsRepository.findOwned
SELECT
  "Account"."id" AS "Account_id",
  "Account"."company_id" AS "Account_company_id",
  "Account"."nickname" AS "Account_nickname",
  "Account"."iban" AS "Account_iban",
  "Account"."currency" AS "Account_currency",
  "Account"."current_balance" AS "Account_current_balance",
  "Account"."available_balance" AS "Account_available_balance",
  "Account"."credit_limit" AS "Account_credit_limit",
  "Account"."balance_date" AS "Account_balance_date",
  "Account"."created_at" AS "Account_created_at"
FROM
  "accounts" "Account"
WHERE
  (
    ("Account"."id" = $1)
    AND ("Account"."company_id" = $2)
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
      "accounts" "Account"
    WHERE
      (("Account"."id" = $1))
  )
LIMIT
  1;
