-- Written by `npm run sql` from server/src/integrators/integrators.repository.ts: do not edit.

-- IntegratorsRepository.create
START TRANSACTION;

INSERT INTO
  "integrators" ("id", "name", "contact_email", "created_at")
VALUES
  (DEFAULT, $1, $2, DEFAULT)
RETURNING
  "id",
  "created_at";

COMMIT;

-- IntegratorsRepository.exists
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
      "integrators" "Integrator"
    WHERE
      (("Integrator"."id" = $1))
  )
LIMIT
  1;

-- IntegratorsRepository.grant
INSERT INTO
  "company_grants" AS "CompanyGrant" ("integrator_id", "company_id", "created_at")
VALUES
  ($1, $2, DEFAULT)
ON CONFLICT DO NOTHING
RETURNING
  "created_at";
