-- Written by `npm run sql` from server/src/products/products.repository.ts: do not edit.

-- ProductsRepository.page
SELECT
  "p"."id" AS "p_id",
  "p"."company_id" AS "p_company_id",
  "p"."code" AS "p_code",
  "p"."description" AS "p_description",
  "p"."unit_price" AS "p_unit_price",
  "p"."currency" AS "p_currency",
  "p"."unit_of_measure" AS "p_unit_of_measure",
  "p"."vat_percentage" AS "p_vat_percentage",
  "p"."tax_exemption" AS "p_tax_exemption",
  "p"."created_at" AS "p_created_at",
  "p"."updated_at" AS "p_updated_at"
FROM
  "products" "p"
WHERE
  "p"."company_id" = $1
ORDER BY
  "p"."code" ASC,
  "p"."id" ASC
LIMIT
  26;

-- ProductsRepository.findOwned
SELECT
  "Product"."id" AS "Product_id",
  "Product"."company_id" AS "Product_company_id",
  "Product"."code" AS "Product_code",
  "Product"."description" AS "Product_description",
  "Product"."unit_price" AS "Product_unit_price",
  "Product"."currency" AS "Product_currency",
  "Product"."unit_of_measure" AS "Product_unit_of_measure",
  "Product"."vat_percentage" AS "Product_vat_percentage",
  "Product"."tax_exemption" AS "Product_tax_exemption",
  "Product"."created_at" AS "Product_created_at",
  "Product"."updated_at" AS "Product_updated_at"
FROM
  "products" "Product"
WHERE
  (
    ("Product"."id" = $1)
    AND ("Product"."company_id" = $2)
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
      "products" "Product"
    WHERE
      (("Product"."id" = $1))
  )
LIMIT
  1;

-- ProductsRepository.ofCompany
SELECT
  "Product"."id" AS "Product_id",
  "Product"."company_id" AS "Product_company_id",
  "Product"."code" AS "Product_code",
  "Product"."description" AS "Product_description",
  "Product"."unit_price" AS "Product_unit_price",
  "Product"."currency" AS "Product_currency",
  "Product"."unit_of_measure" AS "Product_unit_of_measure",
  "Product"."vat_percentage" AS "Product_vat_percentage",
  "Product"."tax_exemption" AS "Product_tax_exemption",
  "Product"."created_at" AS "Product_created_at",
  "Product"."updated_at" AS "Product_updated_at"
FROM
  "products" "Product"
WHERE
  (
    ("Product"."company_id" = $1)
    AND ("Product"."id" IN ($2))
  );

-- ProductsRepository.idWithCode
SELECT
  "Product"."id" AS "Product_id"
FROM
  "products" "Product"
WHERE
  (
    ("Product"."company_id" = $1)
    AND ("Product"."code" = $2)
  )
LIMIT
  1;

-- ProductsRepository.insert
START TRANSACTION;

INSERT INTO
  "products" (
    "id",
    "company_id",
    "code",
    "description",
    "unit_price",
    "currency",
    "unit_of_measure",
    "vat_percentage",
    "tax_exemption",
    "created_at",
    "updated_at"
  )
VALUES
  (
    DEFAULT,
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "created_at",
  "updated_at";

ROLLBACK;

-- ProductsRepository.update
START TRANSACTION;

SELECT
  "Product"."id" AS "Product_id",
  "Product"."company_id" AS "Product_company_id",
  "Product"."code" AS "Product_code",
  "Product"."description" AS "Product_description",
  "Product"."unit_price" AS "Product_unit_price",
  "Product"."currency" AS "Product_currency",
  "Product"."unit_of_measure" AS "Product_unit_of_measure",
  "Product"."vat_percentage" AS "Product_vat_percentage",
  "Product"."tax_exemption" AS "Product_tax_exemption",
  "Product"."created_at" AS "Product_created_at",
  "Product"."updated_at" AS "Product_updated_at"
FROM
  "products" "Product"
WHERE
  (("Product"."id" = $1))
LIMIT
  1
FOR UPDATE;

SELECT
  "Product"."id" AS "Product_id",
  "Product"."company_id" AS "Product_company_id",
  "Product"."code" AS "Product_code",
  "Product"."description" AS "Product_description",
  "Product"."unit_price" AS "Product_unit_price",
  "Product"."currency" AS "Product_currency",
  "Product"."unit_of_measure" AS "Product_unit_of_measure",
  "Product"."vat_percentage" AS "Product_vat_percentage",
  "Product"."tax_exemption" AS "Product_tax_exemption",
  "Product"."created_at" AS "Product_created_at",
  "Product"."updated_at" AS "Product_updated_at"
FROM
  "products" "Product"
WHERE
  "Product"."id" = $1;

INSERT INTO
  "products" (
    "id",
    "company_id",
    "code",
    "description",
    "unit_price",
    "currency",
    "unit_of_measure",
    "vat_percentage",
    "tax_exemption",
    "created_at",
    "updated_at"
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    DEFAULT,
    DEFAULT
  )
RETURNING
  "id",
  "created_at",
  "updated_at";

ROLLBACK;

-- ProductsRepository.delete
DELETE FROM "products"
WHERE
  "id" = $1;
