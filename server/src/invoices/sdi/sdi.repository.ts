import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DummyValue, GenerateSql } from '../../common/database/generate-sql.js';
import type { DocumentStatus } from '../../documents/document.enums.js';
import { Document } from '../../documents/document.entity.js';
import { StoredInvoice } from '../invoice.entity.js';

/**
 * The e-invoices still CREATED, read from their partial index (documents_awaiting_sdi), then their invoices by primary
 * key: `transmission_*_at` stay set once written, so a join would read every invoice ever transmitted.
 */
const AWAITING_SDI = `SELECT d.id FROM documents d WHERE d.status = 'CREATED' AND d.is_e_invoice`;

/**
 * The SQL of e-invoices on their way to the SDI: the transmissions the dispatcher queues (`invoices.transmission_*`),
 * the document a transmission job reads, and what the SDI's notices change on a document and its stored invoice.
 */
@Injectable()
export class SdiRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The manager outside any transaction, for the stores that take one (loadStoredInvoice). */
  get manager(): EntityManager {
    return this.db.manager;
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Up to `limit` requested transmissions not queued yet, oldest first, locked (others skip them) until `manager` commits. */
  @GenerateSql({ params: [DummyValue.MANAGER, 100] })
  async lockRequestedTransmissions(manager: EntityManager, limit: number): Promise<string[]> {
    const rows: Array<{ document_id: string }> = await manager.query(
      `SELECT document_id FROM invoices WHERE transmission_requested_at IS NOT NULL AND transmission_queued_at IS NULL
        ORDER BY transmission_requested_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map((row) => row.document_id);
  }

  @GenerateSql({ params: [DummyValue.MANAGER, [DummyValue.UUID]] })
  async markQueued(manager: EntityManager, documentIds: string[]): Promise<void> {
    await manager.query('UPDATE invoices SET transmission_queued_at = now() WHERE document_id = ANY($1::uuid[])', [documentIds]);
  }

  /** Documents still CREATED whose transmission was queued more than `afterMs` ago (at most 1000, oldest first). */
  @GenerateSql({ params: [30_000] })
  async staleTransmissions(afterMs: number): Promise<string[]> {
    const rows: Array<{ document_id: string }> = await this.db.query(
      `SELECT i.document_id FROM invoices i
        WHERE i.document_id = ANY (ARRAY(${AWAITING_SDI})) AND i.transmission_queued_at < now() - make_interval(secs => $1::int / 1000.0)
        ORDER BY i.transmission_queued_at LIMIT 1000`,
      [afterMs],
    );
    return rows.map((row) => row.document_id);
  }

  /** E-invoices issued and not yet taken by the SDI (still CREATED), and when the oldest was issued (the status command). */
  @GenerateSql({ params: [] })
  async waitingTransmissions(): Promise<{ waiting: number; oldest: Date | null }> {
    const [row]: Array<{ waiting: number; oldest: Date | null }> = await this.db.query(
      `SELECT count(*)::int AS waiting, min(i.transmission_requested_at) AS oldest FROM invoices i
        WHERE i.document_id = ANY (ARRAY(${AWAITING_SDI})) AND i.transmission_requested_at IS NOT NULL`,
    );
    return row;
  }

  /** Hands transmissions back to the dispatcher, which queues them again. */
  @GenerateSql({ params: [[DummyValue.UUID]] })
  async requeue(documentIds: string[]): Promise<void> {
    await this.db.query('UPDATE invoices SET transmission_queued_at = NULL WHERE document_id = ANY($1::uuid[])', [documentIds]);
  }

  /** The document's company and status, or undefined when it is gone. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async documentState(documentId: string): Promise<{ companyId: string; status: DocumentStatus } | undefined> {
    const [row]: Array<{ company_id: string; status: DocumentStatus }> = await this.db.query('SELECT company_id, status FROM documents WHERE id = $1', [
      documentId,
    ]);
    return row && { companyId: row.company_id, status: row.status };
  }

  /** The company of a document the worker names alone (an SDI job), or null when it is gone. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID] })
  async companyOf(manager: EntityManager, documentId: string): Promise<string | null> {
    const owner = await manager.getRepository(Document).findOne({ select: { companyId: true }, where: { id: documentId } });
    return owner?.companyId ?? null;
  }

  /**
   * A notice's changes to the document, and to its stored invoice: `sent` records when the file went out, `released`
   * frees its duplicate key (a discarded invoice counts as never issued).
   */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID, { status: 'SENT', deliveryStatus: null }, { sent: true, released: true }] })
  async applyNotice(
    manager: EntityManager,
    documentId: string,
    changes: Partial<Pick<Document, 'status' | 'deliveryStatus' | 'deliveryDate'>>,
    invoice: { sent: boolean; released: boolean },
  ): Promise<void> {
    await manager.getRepository(Document).update({ id: documentId }, changes);
    if (invoice.sent) await manager.getRepository(StoredInvoice).update({ documentId }, { sentAt: () => 'now()' });
    if (invoice.released) await manager.getRepository(StoredInvoice).update({ documentId }, { duplicateKey: null });
  }
}
