import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Company } from '../../../companies/company.entity.js';
import { DummyValue, GenerateSql } from '../../../common/database/generate-sql.js';
import type { DocumentStatus } from '../../../documents/document.enums.js';

/** A notice the sandbox SDI still owes, due at its time. */
export interface OwedNotice {
  documentId: string;
  step: number;
  dueAt: Date;
}

/**
 * The SQL of the development SDI: what it still owes (`sdi_sandbox_notices`, one row per notice, due at its time), and
 * the reads it judges a file with.
 */
@Injectable()
export class SandboxNoticesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The manager outside any transaction, for the store that loads a document's file (loadStoredInvoice). */
  get manager(): EntityManager {
    return this.db.manager;
  }

  /** Owes a document's first notice, due in `delayMs` (once: a transmission run twice owes nothing more). */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID, 1000] })
  async oweFirst(companyId: string, documentId: string, delayMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO sdi_sandbox_notices (company_id, document_id, step, due_at) VALUES ($1, $2, 0, now() + make_interval(secs => $3::int / 1000.0))
         ON CONFLICT DO NOTHING`,
      [companyId, documentId, delayMs],
    );
  }

  /** The notices owed, soonest first (at most 1000). */
  @GenerateSql()
  async owed(): Promise<OwedNotice[]> {
    const rows: Array<{ document_id: string; step: number; due_at: Date }> = await this.db.query(
      `SELECT document_id, step, due_at FROM sdi_sandbox_notices ORDER BY due_at LIMIT 1000`,
    );
    return rows.map((row) => ({ documentId: row.document_id, step: row.step, dueAt: row.due_at }));
  }

  @GenerateSql({ params: [DummyValue.UUID, 0] })
  async isOwed(documentId: string, step: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM sdi_sandbox_notices WHERE document_id = $1 AND step = $2`, [documentId, step]);
    return rows.length > 0;
  }

  /**
   * The notice is sent: its row goes and, in the same statement, the next notice's row comes (`next` null: none), due
   * in `delayMs`. Returns whether the next one is owed now (false when the row was already gone: a job run twice).
   */
  @GenerateSql({ params: [DummyValue.UUID, 0, 1, 1000] })
  async sent(documentId: string, step: number, next: number | null, delayMs: number): Promise<boolean> {
    const scheduled: unknown[] = await this.db.query(
      `WITH sent AS (DELETE FROM sdi_sandbox_notices WHERE document_id = $1 AND step = $2 RETURNING company_id, document_id)
       INSERT INTO sdi_sandbox_notices (company_id, document_id, step, due_at)
       SELECT company_id, document_id, $3, now() + make_interval(secs => $4::int / 1000.0) FROM sent WHERE $3::int IS NOT NULL
       RETURNING step`,
      [documentId, step, next, delayMs],
    );
    return scheduled.length > 0;
  }

  /** The document's company and status, or undefined when it is gone. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async document(documentId: string): Promise<{ companyId: string; status: DocumentStatus } | undefined> {
    const [row]: Array<{ company_id: string; status: DocumentStatus }> = await this.db.query(`SELECT company_id, status FROM documents WHERE id = $1`, [
      documentId,
    ]);
    return row && { companyId: row.company_id, status: row.status };
  }

  /** The company's VAT number, which the SDI's checks compare the file's seller with. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID] })
  async companyVatNumber(companyId: string): Promise<string | null> {
    return (await this.db.getRepository(Company).findOneByOrFail({ id: companyId })).vatNumber;
  }
}
