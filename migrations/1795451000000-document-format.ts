import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every document has a format (spec section 3 names no null for it). Documents recorded without a FatturaPA file had
 * none; they take the one documents/document-format.ts gives new ones: FPA12 for an issued document whose
 * counterpart has a public administration's 6-character destination code, else FPR12. The value was never defined
 * before, so filling it changes no version and records no event.
 */
export class DocumentFormat1795451000000 implements MigrationInterface {
  name = 'DocumentFormat1795451000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      UPDATE documents d
         SET format = CASE
               WHEN d.direction = 'ISSUED' AND EXISTS (
                 SELECT 1 FROM counterparts c
                  WHERE c.company_id = d.company_id AND c.id = d.counterpart_id AND c.destination_code ~ '^[0-9A-Z]{6}$'
               ) THEN 'FPA12'
               ELSE 'FPR12'
             END
       WHERE d.format IS NULL`);
    await db.query(`ALTER TABLE documents ALTER COLUMN format SET NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE documents ALTER COLUMN format DROP NOT NULL`);
  }
}
