-- Written by `npm run sql` from server/src/companies/companies.repository.ts: do not edit.

-- CompaniesRepository.page
SELECT
  "c"."id" AS "c_id",
  "c"."name" AS "c_name",
  "c"."vat_number" AS "c_vat_number",
  "c"."tax_number" AS "c_tax_number",
  "c"."country" AS "c_country",
  "c"."fiscal_regime" AS "c_fiscal_regime",
  "c"."created_at" AS "c_created_at",
  "c"."updated_at" AS "c_updated_at"
FROM
  "companies" "c"
WHERE
  "c"."id" IN ($1)
ORDER BY
  "c"."created_at" ASC,
  "c"."id" ASC
LIMIT
  26;

-- CompaniesRepository.subscriptionsOf
SELECT
  "s"."id" AS "s_id",
  "s"."company_id" AS "s_company_id",
  "s"."status" AS "s_status",
  "s"."created_at" AS "s_created_at"
FROM
  "subscriptions" "s"
WHERE
  "s"."company_id" IN ($1)
ORDER BY
  "s"."created_at" DESC,
  "s"."id" DESC;

-- CompaniesRepository.create
START TRANSACTION;

INSERT INTO
  "companies" (
    "id",
    "name",
    "vat_number",
    "tax_number",
    "country",
    "fiscal_regime",
    "created_at",
    "updated_at"
  )
VALUES
  (
    DEFAULT,
    $1,
    $2,
    DEFAULT,
    $3,
    $4,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "created_at",
  "updated_at";

COMMIT;

-- CompaniesRepository.setTaxNumber
UPDATE "companies"
SET
  "tax_number" = $1,
  "updated_at" = CURRENT_TIMESTAMP
WHERE
  "id" = $2;

-- CompaniesRepository.exists
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
      "companies" "Company"
    WHERE
      (("Company"."id" = $1))
  )
LIMIT
  1;

-- CompaniesRepository.get
SELECT
  "Company"."id" AS "Company_id",
  "Company"."name" AS "Company_name",
  "Company"."vat_number" AS "Company_vat_number",
  "Company"."tax_number" AS "Company_tax_number",
  "Company"."country" AS "Company_country",
  "Company"."fiscal_regime" AS "Company_fiscal_regime",
  "Company"."created_at" AS "Company_created_at",
  "Company"."updated_at" AS "Company_updated_at"
FROM
  "companies" "Company"
WHERE
  (("Company"."id" = $1))
LIMIT
  1;
