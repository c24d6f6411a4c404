-- Written by `npm run sql` from server/src/f24/f24.repository.ts: do not edit.

-- F24Repository.insert
INSERT INTO
  f24_requests (
    company_id,
    status,
    file_name,
    label,
    media_type,
    size,
    sha256,
    storage_key
  )
VALUES
  ($1, 'WAITING_OCR', $2, $3, $4, $5, $6, $7)
ON CONFLICT (company_id, sha256) DO NOTHING
RETURNING
  id,
  company_id,
  status,
  file_name,
  label,
  media_type,
  size,
  sha256,
  storage_key,
  failure_reason,
  failure_detail,
  reading,
  page_sources,
  document_id,
  created_at,
  processed_at;

-- F24Repository.find
SELECT
  id,
  company_id,
  status,
  file_name,
  label,
  media_type,
  size,
  sha256,
  storage_key,
  failure_reason,
  failure_detail,
  reading,
  page_sources,
  document_id,
  created_at,
  processed_at
FROM
  f24_requests
WHERE
  id = $1;

-- F24Repository.lockUnqueued
SELECT
  id
FROM
  f24_requests
WHERE
  status = 'WAITING_OCR'
  AND queued_at IS NULL
ORDER BY
  created_at
LIMIT
  $1
FOR UPDATE
  SKIP LOCKED;

-- F24Repository.markQueued
UPDATE f24_requests
SET
  queued_at = now()
WHERE
  id = ANY ($1::uuid[]);

-- F24Repository.queuedLongAgo
SELECT
  id
FROM
  f24_requests
WHERE
  status = 'WAITING_OCR'
  AND queued_at < now() - make_interval(secs => $1::int / 1000.0)
ORDER BY
  queued_at
LIMIT
  1000;

-- F24Repository.unqueue
UPDATE f24_requests
SET
  queued_at = NULL
WHERE
  id = ANY ($1::uuid[]);

-- F24Repository.lockWaiting
SELECT
  id,
  company_id,
  status,
  file_name,
  label,
  media_type,
  size,
  sha256,
  storage_key,
  failure_reason,
  failure_detail,
  reading,
  page_sources,
  document_id,
  created_at,
  processed_at
FROM
  f24_requests
WHERE
  id = $1
  AND status = 'WAITING_OCR'
FOR UPDATE;

-- F24Repository.companyTaxCodes
SELECT
  vat_number,
  tax_number
FROM
  companies
WHERE
  id = $1;

-- F24Repository.complete
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
    creation_date,
    file_name,
    notes
  )
VALUES
  (
    $1,
    $2,
    'F24',
    'CREATED',
    $3,
    false,
    'RECEIVED',
    'EUR',
    $4,
    0,
    $5,
    $6,
    $7
  )
RETURNING
  id;

-- F24Repository.fail
UPDATE f24_requests
SET
  status = 'FAILED',
  failure_reason = $2,
  failure_detail = $3,
  page_sources = $4,
  processed_at = now()
WHERE
  id = $1
RETURNING
  id,
  company_id,
  status,
  file_name,
  label,
  media_type,
  size,
  sha256,
  storage_key,
  failure_reason,
  failure_detail,
  reading,
  page_sources,
  document_id,
  created_at,
  processed_at;
