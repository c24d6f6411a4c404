-- Written by `npm run sql` from server/src/sandbox/sandbox.repository.ts: do not edit.

-- SandboxRepository.claimOwedNotices
DELETE FROM sdi_sandbox_notices
WHERE
  document_id = $1
RETURNING
  step;
