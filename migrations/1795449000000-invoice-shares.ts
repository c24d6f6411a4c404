import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Share-invoice requests. Each holds the mail delivery that carries the courtesy copy (the one delivery mechanism:
 * its state is the share's status), so an accepted share is recorded with its message in one transaction.
 */
export class InvoiceShares1795449000000 implements MigrationInterface {
  name = 'InvoiceShares1795449000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE invoice_shares (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL,
        document_id uuid NOT NULL,
        delivery_id uuid NOT NULL UNIQUE REFERENCES deliveries(id) ON DELETE CASCADE,
        recipients text[] NOT NULL CHECK (cardinality(recipients) BETWEEN 1 AND 20),
        reply_to text NOT NULL,
        subject text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX invoice_shares_document ON invoice_shares (document_id, created_at, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE invoice_shares`);
  }
}
