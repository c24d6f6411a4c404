import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the development SDI (the sandbox) still owes each issued e-invoice: one row per notification to send, due at
 * its time. PostgreSQL is the record and BullMQ only carries the work out: a notice whose job was lost (Redis restarted
 * empty) is queued again by the sweeper from here. Documents already on their way when this table arrives get the
 * notice they wait for: SENT ones their outcome, and public administrations' DELIVERED ones whose buyer code asks for
 * a refusal (REFUSE) that refusal.
 */
export class SdiSandboxNotices1795452000000 implements MigrationInterface {
  name = 'SdiSandboxNotices1795452000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE sdi_sandbox_notices (
        company_id uuid NOT NULL,
        document_id uuid NOT NULL,
        step integer NOT NULL CHECK (step >= 0),
        due_at timestamptz(3) NOT NULL,
        PRIMARY KEY (document_id, step),
        FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX sdi_sandbox_notices_due ON sdi_sandbox_notices (due_at)`);
    await db.query(`
      INSERT INTO sdi_sandbox_notices (company_id, document_id, step, due_at)
      SELECT d.company_id, d.id, CASE WHEN d.status = 'SENT' THEN 0 ELSE 1 END, now()
        FROM documents d JOIN invoices i ON i.document_id = d.id
       WHERE d.status = 'SENT'
          OR (d.status = 'DELIVERED' AND d.format = 'FPA12' AND d.delivery_status = 'RC'
              AND upper(i.invoice #>> '{fattura_elettronica_header,dati_trasmissione,codice_destinatario}') = 'REFUSE')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE sdi_sandbox_notices`);
  }
}
