-- Written by `npm run sql` from server/src/common/events/events.repository.ts: do not edit.

-- EventsRepository.record
INSERT INTO
  "events" (
    "id",
    "company_id",
    "type",
    "payload",
    "created_at",
    "api_version",
    "dispatched_at"
  )
VALUES
  (DEFAULT, $1, $2, $3, $4, $5, DEFAULT)
RETURNING
  "id",
  "created_at";
