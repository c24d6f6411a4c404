-- Written by `npm run sql` from server/src/documents/documents.repository.ts: do not edit.

-- DocumentsRepository.page
SELECT
  "d"."id" AS "d_id",
  "d"."company_id" AS "d_company_id",
  "d"."number" AS "d_number",
  "d"."type" AS "d_type",
  "d"."status" AS "d_status",
  "d"."format" AS "d_format",
  "d"."is_e_invoice" AS "d_is_e_invoice",
  "d"."direction" AS "d_direction",
  "d"."currency" AS "d_currency",
  "d"."gross_amount" AS "d_gross_amount",
  "d"."vat_amount" AS "d_vat_amount",
  "d"."category_id" AS "d_category_id",
  "d"."subcategory_id" AS "d_subcategory_id",
  "d"."counterpart_id" AS "d_counterpart_id",
  "d"."creation_date" AS "d_creation_date",
  "d"."delivery_date" AS "d_delivery_date",
  "d"."delivery_status" AS "d_delivery_status",
  "d"."file_name" AS "d_file_name",
  "d"."notes" AS "d_notes",
  "d"."sectional_id" AS "d_sectional_id",
  "d"."progressive" AS "d_progressive",
  "d"."source_id" AS "d_source_id",
  "d"."created_at" AS "d_created_at",
  "d"."updated_at" AS "d_updated_at",
  "d"."version" AS "d_version"
FROM
  "documents" "d"
WHERE
  "d"."company_id" = $1
ORDER BY
  "d"."created_at" DESC,
  "d"."id" DESC
LIMIT
  26;

-- DocumentsRepository.page (filtered by counterpart)
SELECT
  "d"."id" AS "d_id",
  "d"."company_id" AS "d_company_id",
  "d"."number" AS "d_number",
  "d"."type" AS "d_type",
  "d"."status" AS "d_status",
  "d"."format" AS "d_format",
  "d"."is_e_invoice" AS "d_is_e_invoice",
  "d"."direction" AS "d_direction",
  "d"."currency" AS "d_currency",
  "d"."gross_amount" AS "d_gross_amount",
  "d"."vat_amount" AS "d_vat_amount",
  "d"."category_id" AS "d_category_id",
  "d"."subcategory_id" AS "d_subcategory_id",
  "d"."counterpart_id" AS "d_counterpart_id",
  "d"."creation_date" AS "d_creation_date",
  "d"."delivery_date" AS "d_delivery_date",
  "d"."delivery_status" AS "d_delivery_status",
  "d"."file_name" AS "d_file_name",
  "d"."notes" AS "d_notes",
  "d"."sectional_id" AS "d_sectional_id",
  "d"."progressive" AS "d_progressive",
  "d"."source_id" AS "d_source_id",
  "d"."created_at" AS "d_created_at",
  "d"."updated_at" AS "d_updated_at",
  "d"."version" AS "d_version"
FROM
  "documents" "d"
  LEFT JOIN "counterparts" "counterpart" ON "counterpart"."id" = "d"."counterpart_id"
  AND "counterpart"."company_id" = "d"."company_id"
WHERE
  "d"."company_id" = $1
  AND "counterpart"."company_name" = $2
ORDER BY
  "d"."created_at" DESC,
  "d"."id" DESC
LIMIT
  26;

-- DocumentsRepository.findOwned
SELECT
  "Document"."id" AS "Document_id",
  "Document"."company_id" AS "Document_company_id",
  "Document"."number" AS "Document_number",
  "Document"."type" AS "Document_type",
  "Document"."status" AS "Document_status",
  "Document"."format" AS "Document_format",
  "Document"."is_e_invoice" AS "Document_is_e_invoice",
  "Document"."direction" AS "Document_direction",
  "Document"."currency" AS "Document_currency",
  "Document"."gross_amount" AS "Document_gross_amount",
  "Document"."vat_amount" AS "Document_vat_amount",
  "Document"."category_id" AS "Document_category_id",
  "Document"."subcategory_id" AS "Document_subcategory_id",
  "Document"."counterpart_id" AS "Document_counterpart_id",
  "Document"."creation_date" AS "Document_creation_date",
  "Document"."delivery_date" AS "Document_delivery_date",
  "Document"."delivery_status" AS "Document_delivery_status",
  "Document"."file_name" AS "Document_file_name",
  "Document"."notes" AS "Document_notes",
  "Document"."sectional_id" AS "Document_sectional_id",
  "Document"."progressive" AS "Document_progressive",
  "Document"."source_id" AS "Document_source_id",
  "Document"."created_at" AS "Document_created_at",
  "Document"."updated_at" AS "Document_updated_at",
  "Document"."version" AS "Document_version"
FROM
  "documents" "Document"
WHERE
  (
    ("Document"."id" = $1)
    AND ("Document"."company_id" = $2)
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
      "documents" "Document"
    WHERE
      (("Document"."id" = $1))
  )
LIMIT
  1;

-- DocumentsRepository.lock
SELECT
  "Document"."id" AS "Document_id",
  "Document"."company_id" AS "Document_company_id",
  "Document"."number" AS "Document_number",
  "Document"."type" AS "Document_type",
  "Document"."status" AS "Document_status",
  "Document"."format" AS "Document_format",
  "Document"."is_e_invoice" AS "Document_is_e_invoice",
  "Document"."direction" AS "Document_direction",
  "Document"."currency" AS "Document_currency",
  "Document"."gross_amount" AS "Document_gross_amount",
  "Document"."vat_amount" AS "Document_vat_amount",
  "Document"."category_id" AS "Document_category_id",
  "Document"."subcategory_id" AS "Document_subcategory_id",
  "Document"."counterpart_id" AS "Document_counterpart_id",
  "Document"."creation_date" AS "Document_creation_date",
  "Document"."delivery_date" AS "Document_delivery_date",
  "Document"."delivery_status" AS "Document_delivery_status",
  "Document"."file_name" AS "Document_file_name",
  "Document"."notes" AS "Document_notes",
  "Document"."sectional_id" AS "Document_sectional_id",
  "Document"."progressive" AS "Document_progressive",
  "Document"."source_id" AS "Document_source_id",
  "Document"."created_at" AS "Document_created_at",
  "Document"."updated_at" AS "Document_updated_at",
  "Document"."version" AS "Document_version"
FROM
  "documents" "Document"
WHERE
  (
    ("Document"."company_id" = $1)
    AND ("Document"."id" = $2)
  )
LIMIT
  1
FOR NO KEY UPDATE;

-- DocumentsRepository.lockOwned
SELECT
  "Document"."id" AS "Document_id",
  "Document"."company_id" AS "Document_company_id",
  "Document"."number" AS "Document_number",
  "Document"."type" AS "Document_type",
  "Document"."status" AS "Document_status",
  "Document"."format" AS "Document_format",
  "Document"."is_e_invoice" AS "Document_is_e_invoice",
  "Document"."direction" AS "Document_direction",
  "Document"."currency" AS "Document_currency",
  "Document"."gross_amount" AS "Document_gross_amount",
  "Document"."vat_amount" AS "Document_vat_amount",
  "Document"."category_id" AS "Document_category_id",
  "Document"."subcategory_id" AS "Document_subcategory_id",
  "Document"."counterpart_id" AS "Document_counterpart_id",
  "Document"."creation_date" AS "Document_creation_date",
  "Document"."delivery_date" AS "Document_delivery_date",
  "Document"."delivery_status" AS "Document_delivery_status",
  "Document"."file_name" AS "Document_file_name",
  "Document"."notes" AS "Document_notes",
  "Document"."sectional_id" AS "Document_sectional_id",
  "Document"."progressive" AS "Document_progressive",
  "Document"."source_id" AS "Document_source_id",
  "Document"."created_at" AS "Document_created_at",
  "Document"."updated_at" AS "Document_updated_at",
  "Document"."version" AS "Document_version"
FROM
  "documents" "Document"
WHERE
  (
    ("Document"."id" = $1)
    AND ("Document"."company_id" = $2)
  )
LIMIT
  1
FOR NO KEY UPDATE;

SELECT
  "Document"."id" AS "Document_id",
  "Document"."company_id" AS "Document_company_id",
  "Document"."number" AS "Document_number",
  "Document"."type" AS "Document_type",
  "Document"."status" AS "Document_status",
  "Document"."format" AS "Document_format",
  "Document"."is_e_invoice" AS "Document_is_e_invoice",
  "Document"."direction" AS "Document_direction",
  "Document"."currency" AS "Document_currency",
  "Document"."gross_amount" AS "Document_gross_amount",
  "Document"."vat_amount" AS "Document_vat_amount",
  "Document"."category_id" AS "Document_category_id",
  "Document"."subcategory_id" AS "Document_subcategory_id",
  "Document"."counterpart_id" AS "Document_counterpart_id",
  "Document"."creation_date" AS "Document_creation_date",
  "Document"."delivery_date" AS "Document_delivery_date",
  "Document"."delivery_status" AS "Document_delivery_status",
  "Document"."file_name" AS "Document_file_name",
  "Document"."notes" AS "Document_notes",
  "Document"."sectional_id" AS "Document_sectional_id",
  "Document"."progressive" AS "Document_progressive",
  "Document"."source_id" AS "Document_source_id",
  "Document"."created_at" AS "Document_created_at",
  "Document"."updated_at" AS "Document_updated_at",
  "Document"."version" AS "Document_version"
FROM
  "documents" "Document"
WHERE
  (
    ("Document"."id" = $1)
    AND ("Document"."company_id" = $2)
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
      "documents" "Document"
    WHERE
      (("Document"."id" = $1))
  )
LIMIT
  1;

-- DocumentsRepository.update
UPDATE "documents"
SET
  "category_id" = $1,
  "subcategory_id" = $2,
  "notes" = $3
WHERE
  (
    "company_id" = $4
    AND "id" = $5
  );

-- DocumentsRepository.setStatus
UPDATE "documents"
SET
  "status" = $1
WHERE
  (
    "company_id" = $2
    AND "id" = $3
  );

-- DocumentsRepository.delete
DELETE FROM "documents"
WHERE
  (
    "company_id" = $1
    AND "id" = $2
  );

-- DocumentsRepository.nextVersion
UPDATE documents
SET
  version = version + 1,
  updated_at = greatest(
    updated_at + interval '1 millisecond',
    clock_timestamp()
  )
WHERE
  company_id = $1
  AND id = $2
RETURNING
  *;

-- DocumentsRepository.relations (category)
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

-- DocumentsRepository.relations (counterpart)
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."company_name" AS "r_company_name",
  "r"."address" AS "r_address",
  "r"."city" AS "r_city",
  "r"."postal_code" AS "r_postal_code",
  "r"."province_code" AS "r_province_code",
  "r"."country" AS "r_country",
  "r"."tax_number" AS "r_tax_number",
  "r"."vat_number" AS "r_vat_number",
  "r"."destination_code" AS "r_destination_code",
  "r"."pec_address" AS "r_pec_address",
  "r"."created_at" AS "r_created_at",
  "r"."updated_at" AS "r_updated_at"
FROM
  "counterparts" "r"
WHERE
  "r"."id" IN ($1);

-- DocumentsRepository.relations (flows)
SELECT
  *
FROM
  flows
WHERE
  company_id = ANY ($1::uuid[])
  AND document_id = ANY ($2::uuid[])
ORDER BY
  expected_payment_date ASC NULLS LAST,
  created_at ASC,
  id ASC;

-- DocumentsRepository.relations (sectional)
SELECT
  "r"."id" AS "r_id",
  "r"."company_id" AS "r_company_id",
  "r"."year" AS "r_year",
  "r"."prefix" AS "r_prefix",
  "r"."suffix" AS "r_suffix",
  "r"."minimum_digits" AS "r_minimum_digits",
  "r"."last_progressive" AS "r_last_progressive",
  "r"."created_at" AS "r_created_at",
  "r"."updated_at" AS "r_updated_at"
FROM
  "sectionals" "r"
WHERE
  "r"."id" IN ($1);

-- DocumentsRepository.relations (subcategory)
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
