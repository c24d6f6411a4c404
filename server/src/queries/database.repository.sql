-- Written by `npm run sql` from server/src/common/database/database.repository.ts: do not edit.

-- DatabaseRepository.ping
SELECT
  1;

-- DatabaseRepository.connections
SELECT
  coalesce(nullif(a.application_name, ''), '(none)') AS application,
  count(*)::int AS connections,
  current_setting('max_connections')::int AS max_connections
FROM
  pg_stat_activity a
WHERE
  a.backend_type = 'client backend'
GROUP BY
  1
ORDER BY
  2 DESC,
  1;
