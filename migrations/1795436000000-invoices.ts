import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-invoices. `invoices` keeps, for a document created from a FatturaPA invoice, the file as it was received (or as
 * Flusso wrote it from JSON), its JSON form, the system's ProgressivoInvio and the SDI's duplicate key (number, year,
 * TipoDocumento and seller: SDI rule 00404), cleared when the SDI discards the file so it may be sent again.
 * `sdi_progressivi` holds each company's last ProgressivoInvio: it only goes up, so a number is never reused.
 *
 * Issuing an e-invoice sets `transmission_requested_at` in the same transaction that makes the document CREATED and
 * notifies the worker, which queues the transmission (`transmission_queued_at`) on BullMQ.
 *
 * `delivery_status` now carries, after the notification code, its detail: the SDI's error codes of a discard
 * (`NS 00311,00404`) or the outcome of a public administration (`NE EC02`).
 */
export class Invoices1795436000000 implements MigrationInterface {
  name = 'Invoices1795436000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE documents DROP CONSTRAINT IF EXISTS documents_delivery_status_check`);
    await db.query(`ALTER TABLE documents ADD CONSTRAINT documents_delivery_status_check
      CHECK (delivery_status ~ '^(RC|MC|NS|NE|DT|AT)( [0-9A-Z]{4,5}(,[0-9A-Z]{4,5})*)?$')`);
    await db.query(`
      CREATE TABLE sdi_progressivi (
        company_id uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
        last bigint NOT NULL CHECK (last > 0 AND last < 60466176)
      )`);
    await db.query(`
      CREATE TABLE invoices (
        document_id uuid PRIMARY KEY,
        company_id uuid NOT NULL,
        progressivo_invio text NOT NULL CHECK (progressivo_invio ~ '^[0-9A-Z]{5}$'),
        source text NOT NULL CHECK (source IN ('xml', 'json')),
        xml bytea NOT NULL,
        invoice jsonb NOT NULL,
        duplicate_key text,
        reconciliation_identifier text,
        transmission_requested_at timestamptz(3),
        transmission_queued_at timestamptz(3),
        sent_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id) ON DELETE CASCADE,
        UNIQUE (company_id, progressivo_invio),
        UNIQUE (company_id, duplicate_key)
      )`);
    await db.query(`CREATE INDEX invoices_reconciliation_identifier ON invoices (company_id, reconciliation_identifier)
      WHERE reconciliation_identifier IS NOT NULL`);
    await db.query(`CREATE INDEX invoices_transmission_due ON invoices (transmission_requested_at)
      WHERE transmission_requested_at IS NOT NULL AND transmission_queued_at IS NULL`);
    await db.query(`
      CREATE TRIGGER invoices_notify_sdi AFTER INSERT OR UPDATE OF transmission_requested_at, transmission_queued_at ON invoices
      FOR EACH ROW WHEN (NEW.transmission_requested_at IS NOT NULL AND NEW.transmission_queued_at IS NULL)
      EXECUTE FUNCTION notify_flusso_work('flusso_sdi')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE invoices`);
    await db.query(`DROP TABLE sdi_progressivi`);
    await db.query(`UPDATE documents SET delivery_status = split_part(delivery_status, ' ', 1) WHERE delivery_status LIKE '% %'`);
    await db.query(`ALTER TABLE documents DROP CONSTRAINT documents_delivery_status_check`);
    await db.query(`ALTER TABLE documents ADD CONSTRAINT documents_delivery_status_check CHECK (delivery_status IN ('RC', 'MC', 'NS', 'NE', 'DT', 'AT'))`);
  }
}
