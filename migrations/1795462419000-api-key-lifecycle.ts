import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys managed by API (issue 19): when a key was last used (approximate, written at most once a minute per API
 * process), and until when a rolled key keeps working. Both are nullable. An API of the previous release does not
 * read `expires_at`: during a rolling deploy a rolled key keeps working there until that release is gone.
 */
export class ApiKeyLifecycle1795462419000 implements MigrationInterface {
  name = 'ApiKeyLifecycle1795462419000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz(3), ADD COLUMN expires_at timestamptz(3)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys DROP COLUMN last_used_at, DROP COLUMN expires_at`);
  }
}
