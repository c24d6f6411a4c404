import type { MigrationInterface, QueryRunner } from 'typeorm';

const REFERENCES = [
  ['documents', 'category_id'],
  ['documents', 'subcategory_id'],
  ['transactions', 'category_id'],
  ['transactions', 'subcategory_id'],
] as const;

/**
 * Categories become writable through the API, and deleting one that documents or transactions use is refused (409
 * category_in_use) rather than silently clearing it from them. The database enforces it too: the references from
 * documents and transactions change from ON DELETE SET NULL to NO ACTION (checked at the end of the statement, so
 * deleting a whole company still cascades). The new indexes serve both the usage count and those foreign-key checks.
 */
export class CategoriesInUse1795431718196 implements MigrationInterface {
  name = 'CategoriesInUse1795431718196';

  async up(db: QueryRunner): Promise<void> {
    for (const [table, column] of REFERENCES) {
      await db.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_company_id_${column}_fkey`);
      await db.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_company_id_${column}_fkey
           FOREIGN KEY (company_id, ${column}) REFERENCES categories (company_id, id)`,
      );
      await db.query(`CREATE INDEX ${table}_company_${column} ON ${table} (company_id, ${column}) WHERE ${column} IS NOT NULL`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const [table, column] of REFERENCES) {
      await db.query(`DROP INDEX ${table}_company_${column}`);
      await db.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_company_id_${column}_fkey`);
      await db.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_company_id_${column}_fkey
           FOREIGN KEY (company_id, ${column}) REFERENCES categories (company_id, id) ON DELETE SET NULL (${column})`,
      );
    }
  }
}
