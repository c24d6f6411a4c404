import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change to a document (its own members or its flows) increments its version, which documents and their
 * document.updated events carry so that a receiver can drop a stale event. Existing documents start at 1.
 */
export class DocumentVersion1795431090864 implements MigrationInterface {
  name = 'DocumentVersion1795431090864';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE documents ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE documents DROP COLUMN version`);
  }
}
