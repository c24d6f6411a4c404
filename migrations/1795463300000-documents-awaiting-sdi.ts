import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The issued e-invoices still CREATED: those the SDI has not taken yet (and those a company transmits itself). The
 * worker's SDI sweeper reads them every 30 seconds and the status command counts them; without this index both read
 * every invoice ever transmitted (`transmission_requested_at` and `transmission_queued_at` stay set), joined with
 * documents. Not built CONCURRENTLY: that waits for every transaction's snapshot, a `migrate` waiting on the migration
 * lock's included, which waits for this one. One scan of documents, writes to it held meanwhile.
 */
export class DocumentsAwaitingSdi1795463300000 implements MigrationInterface {
  name = 'DocumentsAwaitingSdi1795463300000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX documents_awaiting_sdi ON documents (id) WHERE status = 'CREATED' AND is_e_invoice`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX documents_awaiting_sdi`);
  }
}
