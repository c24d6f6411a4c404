import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A file a supplier sent the company (a received e-invoice) carries the supplier's ProgressivoInvio, which is no number
 * of the company's own counter: such a file stores none, and two suppliers' `00001` never collide.
 */
export class ReceivedInvoices1795457300000 implements MigrationInterface {
  name = 'ReceivedInvoices1795457300000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE invoices ALTER COLUMN progressivo_invio DROP NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM documents d USING invoices i WHERE i.document_id = d.id AND i.progressivo_invio IS NULL`);
    await db.query(`ALTER TABLE invoices ALTER COLUMN progressivo_invio SET NOT NULL`);
  }
}
