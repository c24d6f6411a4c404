-- Written by `npm run sql` from server/src/invoices/sdi/drivers/sandbox-notices.repository.ts: do not edit.

-- SandboxNoticesRepository.oweFirst
INSERT INTO
  sdi_sandbox_notices (company_id, document_id, step, due_at)
VALUES
  (
    $1,
    $2,
    0,
    now() + make_interval(secs => $3::int / 1000.0)
  )
ON CONFLICT DO NOTHING;

-- SandboxNoticesRepository.owed
SELECT
  document_id,
  step,
  due_at
FROM
  sdi_sandbox_notices
ORDER BY
  due_at
LIMIT
  1000;

-- SandboxNoticesRepository.isOwed
SELECT
  1
FROM
  sdi_sandbox_notices
WHERE
  document_id = $1
  AND step = $2;

-- SandboxNoticesRepository.sent
WITH
  sent AS (
    DELETE FROM sdi_sandbox_notices
    WHERE
      document_id = $1
      AND step = $2
    RETURNING
      company_id,
      document_id
  )
INSERT INTO
  sdi_sandbox_notices (company_id, document_id, step, due_at)
SELECT
  company_id,
  document_id,
  $3,
  now() + make_interval(secs => $4::int / 1000.0)
FROM
  sent
WHERE
  $3::int IS NOT NULL
RETURNING
  step;

-- SandboxNoticesRepository.document
SELECT
  company_id,
  status
FROM
  documents
WHERE
  id = $1;

-- SandboxNoticesRepository.companyVatNumber
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
