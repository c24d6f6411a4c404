-- Written by `npm run sql` from server/src/categories/categories.repository.ts: do not edit.

-- CategoriesRepository.page
SELECT
  "cat"."id" AS "cat_id",
  "cat"."company_id" AS "cat_company_id",
  "cat"."parent_id" AS "cat_parent_id",
  "cat"."name" AS "cat_name",
  "cat"."created_at" AS "cat_created_at"
FROM
  "categories" "cat"
WHERE
  "cat"."company_id" = $1
  AND "cat"."parent_id" IS NULL
ORDER BY
  "cat"."name" ASC,
  "cat"."id" ASC
LIMIT
  26;

-- CategoriesRepository.subcategoryPage
SELECT
  "sub"."id" AS "sub_id",
  "sub"."company_id" AS "sub_company_id",
  "sub"."parent_id" AS "sub_parent_id",
  "sub"."name" AS "sub_name",
  "sub"."created_at" AS "sub_created_at"
FROM
  "categories" "sub"
WHERE
  "sub"."company_id" = $1
  AND "sub"."parent_id" IS NOT NULL
ORDER BY
  "sub"."name" ASC,
  "sub"."id" ASC
LIMIT
  26;

-- CategoriesRepository.findOwned
SELECT
  "Category"."id" AS "Category_id",
  "Category"."company_id" AS "Category_company_id",
  "Category"."parent_id" AS "Category_parent_id",
  "Category"."name" AS "Category_name",
  "Category"."created_at" AS "Category_created_at"
FROM
  "categories" "Category"
WHERE
  (
    ("Category"."id" = $1)
    AND ("Category"."company_id" = $2)
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
      "categories" "Category"
    WHERE
      (("Category"."id" = $1))
  )
LIMIT
  1;

-- CategoriesRepository.findOwnedInUse
SELECT
  "Category"."id" AS "Category_id",
  "Category"."company_id" AS "Category_company_id",
  "Category"."parent_id" AS "Category_parent_id",
  "Category"."name" AS "Category_name",
  "Category"."created_at" AS "Category_created_at"
FROM
  "categories" "Category"
WHERE
  (
    ("Category"."id" = $1)
    AND ("Category"."company_id" = $2)
  )
LIMIT
  1
FOR KEY SHARE;

SELECT
  "Category"."id" AS "Category_id",
  "Category"."company_id" AS "Category_company_id",
  "Category"."parent_id" AS "Category_parent_id",
  "Category"."name" AS "Category_name",
  "Category"."created_at" AS "Category_created_at"
FROM
  "categories" "Category"
WHERE
  (
    ("Category"."id" = $1)
    AND ("Category"."company_id" = $2)
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
      "categories" "Category"
    WHERE
      (("Category"."id" = $1))
  )
LIMIT
  1;

-- CategoriesRepository.findById
SELECT
  "Category"."id" AS "Category_id",
  "Category"."company_id" AS "Category_company_id",
  "Category"."parent_id" AS "Category_parent_id",
  "Category"."name" AS "Category_name",
  "Category"."created_at" AS "Category_created_at"
FROM
  "categories" "Category"
WHERE
  (("Category"."id" = $1))
LIMIT
  1;

-- CategoriesRepository.create
START TRANSACTION;

INSERT INTO
  "categories" (
    "id",
    "company_id",
    "parent_id",
    "name",
    "created_at"
  )
VALUES
  (DEFAULT, $1, $2, $3, DEFAULT)
RETURNING
  "id",
  "created_at";

ROLLBACK;

-- CategoriesRepository.rename
UPDATE "categories"
SET
  "name" = $1
WHERE
  (
    "company_id" = $2
    AND "id" = $3
  );

-- CategoriesRepository.lockWithSubcategories
SELECT
  id
FROM
  categories
WHERE
  company_id = $1
  AND (
    id = $2
    OR parent_id = $2
  )
ORDER BY
  id
FOR UPDATE;

-- CategoriesRepository.usage
SELECT
  (
    SELECT
      count(*)
    FROM
      documents
    WHERE
      company_id = $1
      AND (
        category_id = ANY ($2::uuid[])
        OR subcategory_id = ANY ($2::uuid[])
      )
  )::int AS documents,
  (
    SELECT
      count(*)
    FROM
      transactions
    WHERE
      company_id = $1
      AND (
        category_id = ANY ($2::uuid[])
        OR subcategory_id = ANY ($2::uuid[])
      )
  )::int AS transactions;

-- CategoriesRepository.delete
DELETE FROM "categories"
WHERE
  (
    "company_id" = $1
    AND "id" = $2
  );
