import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { documentFormat } from '../documents/document-format.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import type { F24Reading } from './f24-form.js';
import type { F24Failure } from './f24-parser.js';
import type { F24RequestRow } from './f24.presenter.js';

/** A request as the snapshots' examples pass it. */
const EXAMPLE_ROW = { id: DummyValue.UUID, company_id: DummyValue.COMPANY_ID, file_name: 'F24-marzo.pdf', label: DummyValue.STRING } as F24RequestRow;
const EXAMPLE_READING: F24Reading = { tax_code: '01234567897', payment_date: DummyValue.DATE, saldo: '100.00', sections: [] };
const EXAMPLE_REQUEST: NewF24Request = {
  companyId: DummyValue.COMPANY_ID,
  fileName: 'F24-marzo.pdf',
  label: null,
  mediaType: 'application/pdf',
  size: 1024,
  sha256: 'a'.repeat(64),
  storageKey: `f24/${'a'.repeat(64)}`,
};

const COLUMNS = `id, company_id, status, file_name, label, media_type, size, sha256, storage_key, failure_reason, failure_detail,
  reading, page_sources, document_id, created_at, processed_at`;

export interface NewF24Request {
  companyId: string;
  fileName: string | null;
  label: string | null;
  mediaType: string;
  size: number;
  sha256: string;
  storageKey: string;
}

/**
 * The SQL of F24 requests and of the document each one makes; nothing else writes these rows. (TypeORM answers an
 * UPDATE … RETURNING with `[rows, count]`.)
 */
@Injectable()
export class F24Repository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A new request, or the company's earlier one for the same file (same SHA-256), and which of the two it is. */
  @GenerateSql({ params: [EXAMPLE_REQUEST] })
  async insert(request: NewF24Request): Promise<{ row: F24RequestRow; existing: boolean }> {
    const [inserted]: F24RequestRow[] = await this.db.query(
      `INSERT INTO f24_requests (company_id, status, file_name, label, media_type, size, sha256, storage_key)
       VALUES ($1, 'WAITING_OCR', $2, $3, $4, $5, $6, $7) ON CONFLICT (company_id, sha256) DO NOTHING RETURNING ${COLUMNS}`,
      [request.companyId, request.fileName, request.label, request.mediaType, request.size, request.sha256, request.storageKey],
    );
    if (inserted) return { row: inserted, existing: false };
    const [earlier]: F24RequestRow[] = await this.db.query(`SELECT ${COLUMNS} FROM f24_requests WHERE company_id = $1 AND sha256 = $2`, [
      request.companyId,
      request.sha256,
    ]);
    return { row: earlier, existing: true };
  }

  @GenerateSql({ params: [DummyValue.UUID] })
  async find(id: string): Promise<F24RequestRow | null> {
    const [row]: F24RequestRow[] = await this.db.query(`SELECT ${COLUMNS} FROM f24_requests WHERE id = $1`, [id]);
    return row ?? null;
  }

  /** Waiting requests not yet queued, locked for the caller's transaction (SKIP LOCKED: dispatchers never share one). */
  @GenerateSql({ params: [DummyValue.MANAGER, 50] })
  async lockUnqueued(manager: EntityManager, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id FROM f24_requests WHERE status = 'WAITING_OCR' AND queued_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  @GenerateSql({ params: [DummyValue.MANAGER, [DummyValue.UUID]] })
  async markQueued(manager: EntityManager, ids: string[]): Promise<void> {
    await manager.query('UPDATE f24_requests SET queued_at = now() WHERE id = ANY($1::uuid[])', [ids]);
  }

  /** Requests queued over `ms` ago and still waiting: their job may be lost. */
  @GenerateSql({ params: [120_000] })
  async queuedLongAgo(ms: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM f24_requests WHERE status = 'WAITING_OCR' AND queued_at < now() - make_interval(secs => $1::int / 1000.0) ORDER BY queued_at LIMIT 1000`,
      [ms],
    );
    return rows.map((r) => r.id);
  }

  @GenerateSql({ params: [[DummyValue.UUID]] })
  async unqueue(ids: string[]): Promise<void> {
    await this.db.query('UPDATE f24_requests SET queued_at = NULL WHERE id = ANY($1::uuid[])', [ids]);
  }

  /** The request, locked, while it still waits (null once another worker finished it). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID] })
  async lockWaiting(manager: EntityManager, id: string): Promise<F24RequestRow | null> {
    const [row]: F24RequestRow[] = await manager.query(`SELECT ${COLUMNS} FROM f24_requests WHERE id = $1 AND status = 'WAITING_OCR' FOR UPDATE`, [id]);
    return row ?? null;
  }

  /**
   * The company's own tax identifiers, the contributors its F24s may name: its partita IVA without the country prefix
   * and its codice fiscale when that differs (a sole trader pays with the 16 characters of the person).
   */
  @GenerateSql({ params: [DummyValue.COMPANY_ID] })
  async companyTaxCodes(companyId: string): Promise<string[]> {
    const [row]: Array<{ vat_number: string | null; tax_number: string | null }> = await this.db.query(
      'SELECT vat_number, tax_number FROM companies WHERE id = $1',
      [companyId],
    );
    if (!row) return [];
    const codes = [row.vat_number?.startsWith('IT') ? row.vat_number.slice(2) : null, row.tax_number];
    return [...new Set(codes.filter((code): code is string => !!code))];
  }

  /**
   * The F24 document (type F24, RECEIVED: money goes out, CREATED, the saldo as its gross amount, no VAT) and, when the
   * saldo is above zero, its one payable flow due on the payment date (TAX_FORM); then the request PROCESSED.
   */
  @GenerateSql({ params: [DummyValue.MANAGER, EXAMPLE_ROW, EXAMPLE_READING, ['text']] })
  async complete(manager: EntityManager, row: F24RequestRow, reading: F24Reading, pages: string[]): Promise<F24RequestRow> {
    const [document]: Array<{ id: string }> = await manager.query(
      `INSERT INTO documents (company_id, number, type, status, format, is_e_invoice, direction, currency, gross_amount, vat_amount, creation_date, file_name, notes)
       VALUES ($1, $2, 'F24', 'CREATED', $3, false, 'RECEIVED', 'EUR', $4, 0, $5, $6, $7) RETURNING id`,
      [row.company_id, `F24 ${reading.payment_date}`, documentFormat('RECEIVED', null), reading.saldo, reading.payment_date, row.file_name, row.label],
    );
    if (Number(reading.saldo) > 0) {
      await manager.query(
        `INSERT INTO flows (company_id, document_id, amount, currency, payment_status, payment_method, expected_payment_date)
         VALUES ($1, $2, $3, 'EUR', 'TO_PAY', 'TAX_FORM', $4)`,
        [row.company_id, document.id, reading.saldo, reading.payment_date],
      );
    }
    const [[done]]: [F24RequestRow[], number] = await manager.query(
      `UPDATE f24_requests SET status = 'PROCESSED', reading = $2, page_sources = $3, document_id = $4, processed_at = now()
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [row.id, JSON.stringify(reading), pages, document.id],
    );
    return done;
  }

  @GenerateSql({ params: [DummyValue.MANAGER, EXAMPLE_ROW, { reason: 'saldo_mismatch', detail: DummyValue.STRING }, ['ocr']] })
  async fail(manager: EntityManager, row: F24RequestRow, failure: F24Failure, pages: string[]): Promise<F24RequestRow> {
    const [[done]]: [F24RequestRow[], number] = await manager.query(
      `UPDATE f24_requests SET status = 'FAILED', failure_reason = $2, failure_detail = $3, page_sources = $4, processed_at = now()
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [row.id, failure.reason, failure.detail, pages],
    );
    return done;
  }
}
