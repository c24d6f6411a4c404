-- Written by `npm run sql` from server/src/sectionals/sectionals.repository.ts: do not edit.

-- SectionalsRepository.page
SELECT
  "sec"."id" AS "sec_id",
  "sec"."company_id" AS "sec_company_id",
  "sec"."year" AS "sec_year",
  "sec"."prefix" AS "sec_prefix",
  "sec"."suffix" AS "sec_suffix",
  "sec"."minimum_digits" AS "sec_minimum_digits",
  "sec"."last_progressive" AS "sec_last_progressive",
  "sec"."created_at" AS "sec_created_at",
  "sec"."updated_at" AS "sec_updated_at"
FROM
  "sectionals" "sec"
WHERE
  "sec"."company_id" = $1
ORDER BY
  "sec"."year" DESC,
  "sec"."id" DESC
LIMIT
  26;

-- SectionalsRepository.findOwned
SELECT
  "Sectional"."id" AS "Sectional_id",
  "Sectional"."company_id" AS "Sectional_company_id",
  "Sectional"."year" AS "Sectional_year",
  "Sectional"."prefix" AS "Sectional_prefix",
  "Sectional"."suffix" AS "Sectional_suffix",
  "Sectional"."minimum_digits" AS "Sectional_minimum_digits",
  "Sectional"."last_progressive" AS "Sectional_last_progressive",
  "Sectional"."created_at" AS "Sectional_created_at",
  "Sectional"."updated_at" AS "Sectional_updated_at"
FROM
  "sectionals" "Sectional"
WHERE
  (
    ("Sectional"."id" = $1)
    AND ("Sectional"."company_id" = $2)
  )
LIMIT
  1;

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
      "sectionals" "Sectional"
    WHERE
      (("Sectional"."id" = $1))
  )
LIMIT
  1;

-- SectionalsRepository.lockForUpdate
SELECT
  "Sectional"."id" AS "Sectional_id",
  "Sectional"."company_id" AS "Sectional_company_id",
  "Sectional"."year" AS "Sectional_year",
  "Sectional"."prefix" AS "Sectional_prefix",
  "Sectional"."suffix" AS "Sectional_suffix",
  "Sectional"."minimum_digits" AS "Sectional_minimum_digits",
  "Sectional"."last_progressive" AS "Sectional_last_progressive",
  "Sectional"."created_at" AS "Sectional_created_at",
  "Sectional"."updated_at" AS "Sectional_updated_at"
FROM
  "sectionals" "Sectional"
WHERE
  (
    ("Sectional"."company_id" = $1)
    AND ("Sectional"."id" = $2)
  )
LIMIT
  1
FOR UPDATE;

-- SectionalsRepository.save (new)
INSERT INTO
  "sectionals" (
    "id",
    "company_id",
    "year",
    "prefix",
    "suffix",
    "minimum_digits",
    "last_progressive",
    "created_at",
    "updated_at"
  )
VALUES
  (DEFAULT, $1, $2, $3, $4, $5, $6, DEFAULT, DEFAULT)
RETURNING
  "id",
  "created_at",
  "updated_at";

-- SectionalsRepository.save (existing)
SELECT
  "Sectional"."id" AS "Sectional_id",
  "Sectional"."company_id" AS "Sectional_company_id",
  "Sectional"."year" AS "Sectional_year",
  "Sectional"."prefix" AS "Sectional_prefix",
  "Sectional"."suffix" AS "Sectional_suffix",
  "Sectional"."minimum_digits" AS "Sectional_minimum_digits",
  "Sectional"."last_progressive" AS "Sectional_last_progressive",
  "Sectional"."created_at" AS "Sectional_created_at",
  "Sectional"."updated_at" AS "Sectional_updated_at"
FROM
  "sectionals" "Sectional"
WHERE
  "Sectional"."id" = $1;

INSERT INTO
  "sectionals" (
    "id",
    "company_id",
    "year",
    "prefix",
    "suffix",
    "minimum_digits",
    "last_progressive",
    "created_at",
    "updated_at"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, DEFAULT, DEFAULT)
RETURNING
  "id",
  "created_at",
  "updated_at";

-- SectionalsRepository.idOfSeries
SELECT
  "Sectional"."id" AS "Sectional_id"
FROM
  "sectionals" "Sectional"
WHERE
  (
    ("Sectional"."company_id" = $1)
    AND ("Sectional"."year" = $2)
    AND ("Sectional"."prefix" = $3)
    AND ("Sectional"."suffix" = $4)
  )
LIMIT
  1;

-- SectionalsRepository.takeNext
UPDATE sectionals
SET
  last_progressive = last_progressive + 1,
  updated_at = now()
WHERE
  company_id = $1
  AND id = $2
  AND last_progressive < $3
RETURNING
  year,
  last_progressive,
  prefix,
  suffix,
  minimum_digits,
  updated_at;

-- SectionalsRepository.giveBackLast
UPDATE sectionals
SET
  last_progressive = last_progressive - 1,
  updated_at = now()
WHERE
  company_id = $1
  AND id = $2
  AND last_progressive = $3
RETURNING
  id;

-- SectionalsRepository.get
SELECT
  "Sectional"."id" AS "Sectional_id",
  "Sectional"."company_id" AS "Sectional_company_id",
  "Sectional"."year" AS "Sectional_year",
  "Sectional"."prefix" AS "Sectional_prefix",
  "Sectional"."suffix" AS "Sectional_suffix",
  "Sectional"."minimum_digits" AS "Sectional_minimum_digits",
  "Sectional"."last_progressive" AS "Sectional_last_progressive",
  "Sectional"."created_at" AS "Sectional_created_at",
  "Sectional"."updated_at" AS "Sectional_updated_at"
FROM
  "sectionals" "Sectional"
WHERE
  (
    ("Sectional"."company_id" = $1)
    AND ("Sectional"."id" = $2)
  )
LIMIT
  1;
