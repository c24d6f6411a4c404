import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A company's own codice fiscale, when it is not its partita IVA: a sole trader's 16 characters (a natural person's),
 * or the 11 digits of a body whose tax code differs from its VAT number. Optional; the F24 reader takes a form whose
 * contributor is either of the company's identifiers. The API's Company keeps the fields the specification lists;
 * the operator sets this one (`company:create --tax-number`, `company:tax-number`).
 */
export class CompanyTaxNumber1795463200000 implements MigrationInterface {
  name = 'CompanyTaxNumber1795463200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE companies ADD COLUMN tax_number text CHECK (tax_number ~ '^([A-Z0-9]{16}|[0-9]{11})$')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE companies DROP COLUMN tax_number`);
  }
}
