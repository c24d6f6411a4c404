import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An e-invoice sent as a signed file (.xml.p7m) keeps the envelope as received beside the XML it carries. */
export class SignedInvoiceFiles1795454700000 implements MigrationInterface {
  name = 'SignedInvoiceFiles1795454700000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE invoices ADD COLUMN signed_file bytea`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE invoices DROP COLUMN signed_file`);
  }
}
