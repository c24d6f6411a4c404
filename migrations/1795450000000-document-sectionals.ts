import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A document numbered from a sectional records which one and its progressive. The composite foreign key keeps the
 * sectional in the document's company; the unique index makes a progressive of a series belong to one document at most
 * (the counter's row lock already ensures it; this states it). A series' documents always hold 1 to its
 * `last_progressive`: a number comes back only when the document holding the last one is deleted.
 */
export class DocumentSectionals1795450000000 implements MigrationInterface {
  name = 'DocumentSectionals1795450000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE documents
        ADD COLUMN sectional_id uuid,
        ADD COLUMN progressive integer CHECK (progressive > 0),
        ADD CONSTRAINT documents_sectional_progressive CHECK ((sectional_id IS NULL) = (progressive IS NULL)),
        ADD FOREIGN KEY (company_id, sectional_id) REFERENCES sectionals (company_id, id)`);
    await db.query(`CREATE UNIQUE INDEX documents_sectional_number ON documents (sectional_id, progressive) WHERE sectional_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE documents DROP COLUMN progressive, DROP COLUMN sectional_id`);
  }
}
