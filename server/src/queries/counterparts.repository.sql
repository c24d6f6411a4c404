-- Written by `npm run sql` from server/src/counterparts/counterparts.repository.ts: do not edit.

-- CounterpartsRepository.page
SELECT
  "cp"."id" AS "cp_id",
  "cp"."company_id" AS "cp_company_id",
  "cp"."company_name" AS "cp_company_name",
  "cp"."address" AS "cp_address",
  "cp"."city" AS "cp_city",
  "cp"."postal_code" AS "cp_postal_code",
  "cp"."province_code" AS "cp_province_code",
  "cp"."country" AS "cp_country",
  "cp"."tax_number" AS "cp_tax_number",
  "cp"."vat_number" AS "cp_vat_number",
  "cp"."destination_code" AS "cp_destination_code",
  "cp"."pec_address" AS "cp_pec_address",
  "cp"."created_at" AS "cp_created_at",
  "cp"."updated_at" AS "cp_updated_at"
FROM
  "counterparts" "cp"
WHERE
  "cp"."company_id" = $1
ORDER BY
  "cp"."company_name" ASC NULLS LAST,
  "cp"."id" ASC
LIMIT
  26;

-- CounterpartsRepository.findOwned
SELECT
  "Counterpart"."id" AS "Counterpart_id",
  "Counterpart"."company_id" AS "Counterpart_company_id",
  "Counterpart"."company_name" AS "Counterpart_company_name",
  "Counterpart"."address" AS "Counterpart_address",
  "Counterpart"."city" AS "Counterpart_city",
  "Counterpart"."postal_code" AS "Counterpart_postal_code",
  "Counterpart"."province_code" AS "Counterpart_province_code",
  "Counterpart"."country" AS "Counterpart_country",
  "Counterpart"."tax_number" AS "Counterpart_tax_number",
  "Counterpart"."vat_number" AS "Counterpart_vat_number",
  "Counterpart"."destination_code" AS "Counterpart_destination_code",
  "Counterpart"."pec_address" AS "Counterpart_pec_address",
  "Counterpart"."created_at" AS "Counterpart_created_at",
  "Counterpart"."updated_at" AS "Counterpart_updated_at"
FROM
  "counterparts" "Counterpart"
WHERE
  (
    ("Counterpart"."id" = $1)
    AND ("Counterpart"."company_id" = $2)
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
      "counterparts" "Counterpart"
    WHERE
      (("Counterpart"."id" = $1))
  )
LIMIT
  1;

-- CounterpartsRepository.lockForUpdate
SELECT
  "Counterpart"."id" AS "Counterpart_id",
  "Counterpart"."company_id" AS "Counterpart_company_id",
  "Counterpart"."company_name" AS "Counterpart_company_name",
  "Counterpart"."address" AS "Counterpart_address",
  "Counterpart"."city" AS "Counterpart_city",
  "Counterpart"."postal_code" AS "Counterpart_postal_code",
  "Counterpart"."province_code" AS "Counterpart_province_code",
  "Counterpart"."country" AS "Counterpart_country",
  "Counterpart"."tax_number" AS "Counterpart_tax_number",
  "Counterpart"."vat_number" AS "Counterpart_vat_number",
  "Counterpart"."destination_code" AS "Counterpart_destination_code",
  "Counterpart"."pec_address" AS "Counterpart_pec_address",
  "Counterpart"."created_at" AS "Counterpart_created_at",
  "Counterpart"."updated_at" AS "Counterpart_updated_at"
FROM
  "counterparts" "Counterpart"
WHERE
  (("Counterpart"."id" = $1))
LIMIT
  1
FOR UPDATE;

-- CounterpartsRepository.save (new)
INSERT INTO
  "counterparts" (
    "id",
    "company_id",
    "company_name",
    "address",
    "city",
    "postal_code",
    "province_code",
    "country",
    "tax_number",
    "vat_number",
    "destination_code",
    "pec_address",
    "created_at",
    "updated_at"
  )
VALUES
  (
    DEFAULT,
    $1,
    $2,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    $3,
    DEFAULT,
    $4,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "created_at",
  "updated_at";

-- CounterpartsRepository.save (existing)
SELECT
  "Counterpart"."id" AS "Counterpart_id",
  "Counterpart"."company_id" AS "Counterpart_company_id",
  "Counterpart"."company_name" AS "Counterpart_company_name",
  "Counterpart"."address" AS "Counterpart_address",
  "Counterpart"."city" AS "Counterpart_city",
  "Counterpart"."postal_code" AS "Counterpart_postal_code",
  "Counterpart"."province_code" AS "Counterpart_province_code",
  "Counterpart"."country" AS "Counterpart_country",
  "Counterpart"."tax_number" AS "Counterpart_tax_number",
  "Counterpart"."vat_number" AS "Counterpart_vat_number",
  "Counterpart"."destination_code" AS "Counterpart_destination_code",
  "Counterpart"."pec_address" AS "Counterpart_pec_address",
  "Counterpart"."created_at" AS "Counterpart_created_at",
  "Counterpart"."updated_at" AS "Counterpart_updated_at"
FROM
  "counterparts" "Counterpart"
WHERE
  "Counterpart"."id" = $1;

INSERT INTO
  "counterparts" (
    "id",
    "company_id",
    "company_name",
    "address",
    "city",
    "postal_code",
    "province_code",
    "country",
    "tax_number",
    "vat_number",
    "destination_code",
    "pec_address",
    "created_at",
    "updated_at"
  )
VALUES
  (
    $1,
    $2,
    $3,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    $4,
    DEFAULT,
    $5,
    DEFAULT,
    DEFAULT,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "created_at",
  "updated_at";

-- CounterpartsRepository.idWithVatNumber
SELECT
  "Counterpart"."id" AS "Counterpart_id"
FROM
  "counterparts" "Counterpart"
WHERE
  (
    ("Counterpart"."company_id" = $1)
    AND ("Counterpart"."vat_number" = $2)
  )
LIMIT
  1;
