import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * F24 forms read from PDF or scans (server/src/f24/): the requests (WAITING_OCR until the worker has read the file,
 * then PROCESSED with the document it made, or FAILED with a reason), the files behind the storage port's database
 * driver, and the document type F24. A new request notifies the worker's dispatcher (`flusso_f24`). The same file sent
 * twice to a company is recognised by its SHA-256.
 */
export class F24Requests1795458000000 implements MigrationInterface {
  name = 'F24Requests1795458000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE documents DROP CONSTRAINT documents_type_check`);
    await db.query(`ALTER TABLE documents ADD CONSTRAINT documents_type_check CHECK (type IN ('BILL', 'CREDIT_NOTE', 'DEBIT_NOTE', 'INVOICE', 'OTHER',
      'PARCEL', 'SELF_INVOICE', 'DELIVERY_NOTE', 'QUOTE', 'F24'))`);
    await db.query(`
      CREATE TABLE stored_files (
        key text PRIMARY KEY,
        media_type text NOT NULL,
        content bytea NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE f24_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('WAITING_OCR', 'PROCESSED', 'FAILED')),
        file_name text,
        label text,
        media_type text NOT NULL,
        size integer NOT NULL CHECK (size > 0),
        sha256 char(64) NOT NULL,
        storage_key text NOT NULL,
        failure_reason text,
        failure_detail text,
        reading jsonb,
        page_sources text[],
        document_id uuid,
        queued_at timestamptz(3),
        processed_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        UNIQUE (company_id, sha256),
        FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id) ON DELETE SET NULL (document_id),
        CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL))
      )`);
    await db.query(`CREATE INDEX f24_requests_waiting ON f24_requests (created_at) WHERE status = 'WAITING_OCR'`);
    await db.query(`CREATE TRIGGER f24_requests_notify AFTER INSERT ON f24_requests FOR EACH STATEMENT EXECUTE FUNCTION notify_flusso_work('flusso_f24')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE f24_requests`);
    await db.query(`DROP TABLE stored_files`);
    await db.query(`DELETE FROM documents WHERE type = 'F24'`);
    await db.query(`ALTER TABLE documents DROP CONSTRAINT documents_type_check`);
    await db.query(`ALTER TABLE documents ADD CONSTRAINT documents_type_check CHECK (type IN ('BILL', 'CREDIT_NOTE', 'DEBIT_NOTE', 'INVOICE', 'OTHER',
      'PARCEL', 'SELF_INVOICE', 'DELIVERY_NOTE', 'QUOTE'))`);
  }
}
