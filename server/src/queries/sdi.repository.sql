-- Written by `npm run sql` from server/src/invoices/sdi/sdi.repository.ts: do not edit.

-- SdiRepository.lockRequestedTransmissions
SELECT
  document_id
FROM
  invoices
WHERE
  transmission_requested_at IS NOT NULL
  AND transmission_queued_at IS NULL
ORDER BY
  transmission_requested_at
LIMIT
  $1
FOR UPDATE
  SKIP LOCKED;

-- SdiRepository.markQueued
UPDATE invoices
SET
  transmission_queued_at = now()
WHERE
  document_id = ANY ($1::uuid[]);

-- SdiRepository.staleTransmissions
SELECT
  i.document_id
FROM
  invoices i
WHERE
  i.document_id = ANY (
    ARRAY(
      SELECT
        d.id
      FROM
        documents d
      WHERE
        d.status = 'CREATED'
        AND d.is_e_invoice
    )
  )
  AND i.transmission_queued_at < now() - make_interval(secs => $1::int / 1000.0)
ORDER BY
  i.transmission_queued_at
LIMIT
  1000;

-- SdiRepository.waitingTransmissions
SELECT
  count(*)::int AS waiting,
  min(i.transmission_requested_at) AS oldest
FROM
  invoices i
WHERE
  i.document_id = ANY (
    ARRAY(
      SELECT
        d.id
      FROM
        documents d
      WHERE
        d.status = 'CREATED'
        AND d.is_e_invoice
    )
  )
  AND i.transmission_requested_at IS NOT NULL;

-- SdiRepository.requeue
UPDATE invoices
SET
  transmission_queued_at = NULL
WHERE
  document_id = ANY ($1::uuid[]);

-- SdiRepository.documentState
SELECT
  company_id,
  status
FROM
  documents
WHERE
  id = $1;

-- SdiRepository.companyOf
SELECT
  "Document"."company_id" AS "Document_company_id",
  "Document"."id" AS "Document_id"
FROM
  "documents" "Document"
WHERE
  (("Document"."id" = $1))
LIMIT
  1;

-- SdiRepository.applyNotice
UPDATE "documents"
SET
  "status" = $1,
  "delivery_status" = $2
WHERE
  "id" = $3;

UPDATE "invoices"
SET
  "sent_at" = now()
WHERE
  "document_id" = $1;

UPDATE "invoices"
SET
  "duplicate_key" = $1
WHERE
  "document_id" = $2;
