-- Written by `npm run sql` from server/src/shares/shares.repository.ts: do not edit.

-- SharesRepository.document
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

-- SharesRepository.insert
INSERT INTO
  "invoice_shares" (
    "id",
    "company_id",
    "document_id",
    "delivery_id",
    "recipients",
    "reply_to",
    "subject",
    "created_at"
  )
VALUES
  (DEFAULT, $1, $2, $3, $4, $5, $6, DEFAULT)
RETURNING
  "id",
  "created_at";

-- SharesRepository.page
SELECT
  "s"."id" AS "s_id",
  "s"."company_id" AS "s_company_id",
  "s"."document_id" AS "s_document_id",
  "s"."delivery_id" AS "s_delivery_id",
  "s"."recipients" AS "s_recipients",
  "s"."reply_to" AS "s_reply_to",
  "s"."subject" AS "s_subject",
  "s"."created_at" AS "s_created_at"
FROM
  "invoice_shares" "s"
WHERE
  "s"."document_id" = $1
ORDER BY
  "s"."created_at" DESC,
  "s"."id" DESC
LIMIT
  26;

-- SharesRepository.findOwned
SELECT
  "InvoiceShare"."id" AS "InvoiceShare_id",
  "InvoiceShare"."company_id" AS "InvoiceShare_company_id",
  "InvoiceShare"."document_id" AS "InvoiceShare_document_id",
  "InvoiceShare"."delivery_id" AS "InvoiceShare_delivery_id",
  "InvoiceShare"."recipients" AS "InvoiceShare_recipients",
  "InvoiceShare"."reply_to" AS "InvoiceShare_reply_to",
  "InvoiceShare"."subject" AS "InvoiceShare_subject",
  "InvoiceShare"."created_at" AS "InvoiceShare_created_at"
FROM
  "invoice_shares" "InvoiceShare"
WHERE
  (
    ("InvoiceShare"."id" = $1)
    AND ("InvoiceShare"."company_id" = $2)
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
      "invoice_shares" "InvoiceShare"
    WHERE
      (("InvoiceShare"."id" = $1))
  )
LIMIT
  1;
