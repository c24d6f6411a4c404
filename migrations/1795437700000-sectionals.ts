import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sectionals: a company's numbering series for the documents it issues (Italian "sezionali"). A series belongs to one
 * year (numbering restarts each year: a new year is a new sectional) and renders its numbers as
 * `{prefix}{progressive, zero-padded to minimum_digits}{suffix}`. `last_progressive` is the counter: the last
 * progressive handed out, taken with `UPDATE … SET last_progressive = last_progressive + 1 RETURNING` in the
 * transaction that inserts the document, so a number is gap-free and unique.
 */
export class Sectionals1795437700000 implements MigrationInterface {
  name = 'Sectionals1795437700000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE sectionals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        year integer NOT NULL CHECK (year BETWEEN 2000 AND 2999),
        prefix text NOT NULL DEFAULT '',
        suffix text NOT NULL DEFAULT '',
        minimum_digits integer NOT NULL CHECK (minimum_digits BETWEEN 1 AND 8),
        last_progressive integer NOT NULL DEFAULT 0 CHECK (last_progressive >= 0),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        CONSTRAINT sectionals_company_series UNIQUE (company_id, year, prefix, suffix)
      )`);
    await db.query(`CREATE INDEX sectionals_company_year ON sectionals (company_id, year, id)`);
    await db.query(`CREATE INDEX sectionals_company_created ON sectionals (company_id, created_at, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE sectionals`);
  }
}
