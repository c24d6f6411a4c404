-- Written by `npm run sql` from server/src/counterparts/drivers/registry-companies.repository.ts: do not edit.

-- RegistryCompaniesRepository.findByVatNumber
SELECT
  "RegistryCompany"."vat_number" AS "RegistryCompany_vat_number",
  "RegistryCompany"."tax_number" AS "RegistryCompany_tax_number",
  "RegistryCompany"."company_name" AS "RegistryCompany_company_name",
  "RegistryCompany"."address" AS "RegistryCompany_address",
  "RegistryCompany"."city" AS "RegistryCompany_city",
  "RegistryCompany"."postal_code" AS "RegistryCompany_postal_code",
  "RegistryCompany"."province_code" AS "RegistryCompany_province_code",
  "RegistryCompany"."country" AS "RegistryCompany_country"
FROM
  "registry_companies" "RegistryCompany"
WHERE
  (("RegistryCompany"."vat_number" = $1))
LIMIT
  1;
