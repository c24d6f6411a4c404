import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys get permissions (server/src/common/auth/permissions.ts): `*`, or read/write per resource family. Keys made
 * before keep `*`, so nothing an integrator runs today stops working; new keys always name theirs (no default).
 */
export class KeyPermissions1795437500000 implements MigrationInterface {
  name = 'KeyPermissions1795437500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys ADD COLUMN permissions text[] NOT NULL DEFAULT '{*}' CHECK (cardinality(permissions) > 0)`);
    await db.query(`ALTER TABLE api_keys ALTER COLUMN permissions DROP DEFAULT`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys DROP COLUMN permissions`);
  }
}
