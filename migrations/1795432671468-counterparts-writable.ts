import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counterparts become writable through the API: a PEC address, and one counterpart per VAT number within a company.
 * Counterparts written before are brought to that rule first: VAT numbers take their stored form (country prefix,
 * capitals, no spaces, dots or dashes; eleven digits alone are Italian), then counterparts of one company sharing a
 * VAT number are merged into the oldest, which takes the members it lacks from the others (oldest first) and their
 * documents. An empty VAT number becomes null.
 */
export class CounterpartsWritable1795432671468 implements MigrationInterface {
  name = 'CounterpartsWritable1795432671468';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE counterparts ADD COLUMN pec_address text`);
    await db.query(`
      UPDATE counterparts SET vat_number = normalized
        FROM (SELECT id AS normalized_id,
                     nullif(CASE WHEN compact ~ '^[0-9]{11}$' THEN 'IT' || compact ELSE compact END, '') AS normalized
                FROM (SELECT id, upper(regexp_replace(vat_number, '[[:space:].-]', '', 'g')) AS compact
                        FROM counterparts WHERE vat_number IS NOT NULL) compacted) n
       WHERE counterparts.id = n.normalized_id AND vat_number IS DISTINCT FROM normalized`);
    await db.query(`
      CREATE TEMPORARY TABLE counterpart_merges AS
      SELECT id, keep, created_at
        FROM (SELECT id, created_at,
                     first_value(id) OVER (PARTITION BY company_id, vat_number ORDER BY created_at, id) AS keep
                FROM counterparts WHERE vat_number IS NOT NULL) ranked
       WHERE id <> keep`);
    for (const column of ['company_name', 'address', 'city', 'postal_code', 'province_code', 'country', 'tax_number', 'destination_code']) {
      await db.query(`
        UPDATE counterparts k
           SET ${column} = (SELECT d.${column} FROM counterpart_merges m JOIN counterparts d ON d.id = m.id
                             WHERE m.keep = k.id AND d.${column} IS NOT NULL AND d.${column} <> ''
                             ORDER BY m.created_at, m.id LIMIT 1)
         WHERE (k.${column} IS NULL OR k.${column} = '') AND k.id IN (SELECT keep FROM counterpart_merges)
           AND EXISTS (SELECT 1 FROM counterpart_merges m JOIN counterparts d ON d.id = m.id
                        WHERE m.keep = k.id AND d.${column} IS NOT NULL AND d.${column} <> '')`);
    }
    await db.query(`UPDATE documents SET counterpart_id = m.keep FROM counterpart_merges m WHERE documents.counterpart_id = m.id`);
    await db.query(`DELETE FROM counterparts WHERE id IN (SELECT id FROM counterpart_merges)`);
    await db.query(`DROP TABLE counterpart_merges`);
    // Serves the vat_number filters as the index it replaces did.
    await db.query(`CREATE UNIQUE INDEX counterparts_company_vat_number ON counterparts (company_id, vat_number)`);
    await db.query(`DROP INDEX counterparts_company_vat`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX counterparts_company_vat ON counterparts (company_id, vat_number)`);
    await db.query(`DROP INDEX counterparts_company_vat_number`);
    await db.query(`ALTER TABLE counterparts DROP COLUMN pec_address`);
  }
}
