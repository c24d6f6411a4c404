-- Written by `npm run sql` from server/src/f24/storage/stored-files.repository.ts: do not edit.

-- StoredFilesRepository.put
INSERT INTO
  stored_files (key, media_type, content)
VALUES
  ($1, $2, $3)
ON CONFLICT (key) DO NOTHING;

-- StoredFilesRepository.get
SELECT
  content,
  media_type
FROM
  stored_files
WHERE
  key = $1;
