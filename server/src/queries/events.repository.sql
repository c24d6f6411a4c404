-- Written by `npm run sql` from server/src/common/events/events.repository.ts: do not edit.

-- EventsRepository.record
INSERT INTO
  events (
    company_id,
    type,
    payload,
    created_at,
    api_version
  )
VALUES
  ($1, $2, $3, $4, $5);
