-- Written by `npm run sql` from server/src/invoices/invoices.repository.ts: do not edit.

-- InvoicesRepository.startCreate
WITH
  progressivo AS (
    INSERT INTO
      sdi_progressivi (company_id, last)
    VALUES
      ($1, 1)
    ON CONFLICT (company_id) DO UPDATE
    SET
      last = sdi_progressivi.last + 1
    WHERE
      sdi_progressivi.last + 1 < $2
    RETURNING
      last
  )
SELECT
  (
    SELECT
      last::text
    FROM
      progressivo
  ) AS flusso_progressivo,
  company.vat_number AS flusso_vat_number,
  company.country AS flusso_country,
  counterpart.*
FROM
  companies company
  LEFT JOIN LATERAL (
    SELECT
      *
    FROM
      counterparts
    WHERE
      company_id = $1
      AND (
        vat_number = $3
        OR tax_number = $4
      )
    ORDER BY
      (vat_number = $3) IS TRUE DESC,
      created_at,
      id
    LIMIT
      1
  ) counterpart ON true
WHERE
  company.id = $1;

-- InvoicesRepository.continueProgressivoAfter
INSERT INTO
  sdi_progressivi (company_id, last)
VALUES
  ($1, $2)
ON CONFLICT (company_id) DO UPDATE
SET
  last = greatest(sdi_progressivi.last, EXCLUDED.last);

-- InvoicesRepository.loadStored
SELECT
  "StoredInvoice"."document_id" AS "StoredInvoice_document_id",
  "StoredInvoice"."company_id" AS "StoredInvoice_company_id",
  "StoredInvoice"."progressivo_invio" AS "StoredInvoice_progressivo_invio",
  "StoredInvoice"."source" AS "StoredInvoice_source",
  "StoredInvoice"."xml" AS "StoredInvoice_xml",
  "StoredInvoice"."signed_file" AS "StoredInvoice_signed_file",
  "StoredInvoice"."invoice" AS "StoredInvoice_invoice",
  "StoredInvoice"."duplicate_key" AS "StoredInvoice_duplicate_key",
  "StoredInvoice"."reconciliation_identifier" AS "StoredInvoice_reconciliation_identifier",
  "StoredInvoice"."transmission_requested_at" AS "StoredInvoice_transmission_requested_at",
  "StoredInvoice"."transmission_queued_at" AS "StoredInvoice_transmission_queued_at",
  "StoredInvoice"."sent_at" AS "StoredInvoice_sent_at",
  "StoredInvoice"."created_at" AS "StoredInvoice_created_at"
FROM
  "invoices" "StoredInvoice"
WHERE
  (
    ("StoredInvoice"."document_id" = $1)
    AND ("StoredInvoice"."company_id" = $2)
  )
LIMIT
  1;

-- InvoicesRepository.findFile
SELECT
  "StoredInvoice"."document_id" AS "StoredInvoice_document_id",
  "StoredInvoice"."company_id" AS "StoredInvoice_company_id",
  "StoredInvoice"."progressivo_invio" AS "StoredInvoice_progressivo_invio",
  "StoredInvoice"."source" AS "StoredInvoice_source",
  "StoredInvoice"."xml" AS "StoredInvoice_xml",
  "StoredInvoice"."signed_file" AS "StoredInvoice_signed_file",
  "StoredInvoice"."invoice" AS "StoredInvoice_invoice",
  "StoredInvoice"."duplicate_key" AS "StoredInvoice_duplicate_key",
  "StoredInvoice"."reconciliation_identifier" AS "StoredInvoice_reconciliation_identifier",
  "StoredInvoice"."transmission_requested_at" AS "StoredInvoice_transmission_requested_at",
  "StoredInvoice"."transmission_queued_at" AS "StoredInvoice_transmission_queued_at",
  "StoredInvoice"."sent_at" AS "StoredInvoice_sent_at",
  "StoredInvoice"."created_at" AS "StoredInvoice_created_at"
FROM
  "invoices" "StoredInvoice"
WHERE
  (("StoredInvoice"."document_id" = $1))
LIMIT
  1;

-- InvoicesRepository.hasFile
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
      "invoices" "StoredInvoice"
    WHERE
      (("StoredInvoice"."document_id" = $1))
  )
LIMIT
  1;

-- InvoicesRepository.requestTransmission
UPDATE "invoices"
SET
  "transmission_requested_at" = now()
WHERE
  "document_id" = $1;

-- InvoicesRepository.loadSender
SELECT
  vat_number,
  country
FROM
  companies
WHERE
  id = $1;

-- InvoicesRepository.counterpartFor
SELECT
  *
FROM
  counterparts
WHERE
  company_id = $1
  AND (
    vat_number = $2
    OR tax_number = $3
  )
ORDER BY
  (vat_number = $2) IS TRUE DESC,
  created_at,
  id
LIMIT
  1;

INSERT INTO
  counterparts (
    company_id,
    company_name,
    address,
    city,
    postal_code,
    province_code,
    country,
    tax_number,
    vat_number,
    destination_code
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (company_id, vat_number) DO UPDATE
SET
  vat_number = EXCLUDED.vat_number
RETURNING
  *;

-- InvoicesRepository.insertDocument
WITH
  document AS (
    INSERT INTO
      documents (
        company_id,
        number,
        type,
        status,
        format,
        is_e_invoice,
        direction,
        currency,
        gross_amount,
        vat_amount,
        counterpart_id,
        creation_date,
        file_name,
        sectional_id,
        progressive
      )
    VALUES
      (
        $1,
        $2,
        $3,
        $4,
        $5,
        true,
        $6,
        $7,
        $8,
        $9,
        $10,
        $11,
        $12,
        $25,
        $26
      )
    RETURNING
      *
  ),
  flow AS (
    INSERT INTO
      flows (
        id,
        company_id,
        document_id,
        amount,
        currency,
        paid_amount,
        payment_status,
        payment_method,
        expected_payment_date,
        created_at,
        updated_at
      )
    SELECT
      f.id,
      document.company_id,
      document.id,
      f.amount,
      f.currency,
      0,
      'TO_PAY',
      f.method,
      f.due,
      document.created_at,
      document.created_at
    FROM
      document,
      unnest(
        $13::uuid[],
        $14::numeric[],
        $15::char(3) [],
        $16::text[],
        $17::date[]
      ) AS f (id, amount, currency, method, due)
  ),
  invoice AS (
    INSERT INTO
      invoices (
        document_id,
        company_id,
        progressivo_invio,
        source,
        xml,
        invoice,
        duplicate_key,
        reconciliation_identifier,
        transmission_requested_at,
        signed_file,
        sent_at
      )
    SELECT
      document.id,
      document.company_id,
      $18,
      $19,
      $20,
      $21::jsonb,
      $22,
      $23,
      $24,
      $27,
      $28
    FROM
      document
  )
SELECT
  *
FROM
  document;
