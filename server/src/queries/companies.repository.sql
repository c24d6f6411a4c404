-- Written by `npm run sql` from server/src/companies/companies.repository.ts: do not edit.

-- CompaniesRepository.page
SELECT
  "c"."id" AS "c_id",
  "c"."name" AS "c_name",
  "c"."vat_number" AS "c_vat_number",
  "c"."country" AS "c_country",
  "c"."fiscal_regime" AS "c_fiscal_regime",
  "c"."created_at" AS "c_created_at",
  "c"."updated_at" AS "c_updated_at"
FROM
  "companies" "c"
WHERE
  "c"."id" IN ($1)
ORDER BY
  "c"."created_at" ASC,
  "c"."id" ASC
LIMIT
  26;

-- CompaniesRepository.subscriptionsOf
SELECT
  "s"."id" AS "s_id",
  "s"."company_id" AS "s_company_id",
  "s"."status" AS "s_status",
  "s"."created_at" AS "s_created_at"
FROM
  "subscriptions" "s"
WHERE
  "s"."company_id" IN ($1)
ORDER BY
  "s"."created_at" DESC,
  "s"."id" DESC;
