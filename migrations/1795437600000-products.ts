import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Products: what a company sells, with the defaults an invoice line takes from it (description, unit price, unit of
 * measure, VAT rate, and the Natura code that explains a 0% rate). A code is unique within the company. Limits are
 * FatturaPA's, so a product always fits on an invoice line: CodiceValore 35 characters, Descrizione 1,000, UnitaMisura
 * 10, AliquotaIVA 0.00 to 100.00.
 */
export class Products1795437600000 implements MigrationInterface {
  name = 'Products1795437600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE products (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        code text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 35),
        description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 1000),
        unit_price numeric NOT NULL CHECK (unit_price >= 0),
        currency char(3) NOT NULL,
        unit_of_measure text CHECK (char_length(unit_of_measure) BETWEEN 1 AND 10),
        vat_percentage numeric(5, 2) NOT NULL CHECK (vat_percentage BETWEEN 0 AND 100),
        tax_exemption text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        CHECK ((vat_percentage = 0) = (tax_exemption IS NOT NULL))
      )`);
    // Unique codes, and the index behind the code filters and sort.
    await db.query(`CREATE UNIQUE INDEX products_company_code ON products (company_id, code)`);
    await db.query(`CREATE INDEX products_company_created ON products (company_id, created_at, id)`);
    await db.query(`CREATE INDEX products_description_trgm ON products USING gin (description gin_trgm_ops)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE products`);
  }
}
