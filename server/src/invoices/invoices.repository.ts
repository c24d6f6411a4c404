import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { hydrate } from '../common/database/hydrate.js';
import { queryPrepared } from '../common/database/prepared.js';
import { Counterpart } from '../counterparts/counterpart.entity.js';
import type { DocumentStatus } from '../documents/document.enums.js';
import { Document } from '../documents/document.entity.js';
import { Flow } from '../flows/flow.entity.js';
import { StoredInvoice } from './invoice.entity.js';
import type { DerivedCounterpart, DerivedDocument, EInvoice } from './fatturapa/index.js';

/** ProgressivoInvio is five characters [0-9A-Z]: the counter in base 36, zero-padded (00001, …, 0000Z, 00010, …). */
export const PROGRESSIVO_LIMIT = 36 ** 5;

export function formatProgressivo(n: number): string {
  return n.toString(36).toUpperCase().padStart(5, '0');
}

/** An e-invoice document with its stored file. */
export interface LoadedInvoice {
  document: Document;
  stored: StoredInvoice;
  /** The invoice's JSON form. */
  invoice: EInvoice;
  /** The file's bytes, as received (or as written from JSON). */
  xml: Buffer;
}

/** True when the failure is the SDI's duplicate rule (00404): the company already has an invoice with that key. */
export function isDuplicateInvoice(error: unknown): boolean {
  const driver = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driver?.code === '23505' && driver.constraint === 'invoices_company_id_duplicate_key_key';
}

/**
 * The counterpart an invoice's party already is, given the placeholders of the company, the party's VAT number and
 * its tax code: the one with that VAT number, else with that tax code, the oldest first.
 */
const matchingCounterpart = (company: string, vat: string, tax: string) =>
  `SELECT * FROM counterparts WHERE company_id = ${company} AND (vat_number = ${vat} OR tax_number = ${tax})
   ORDER BY (vat_number = ${vat}) IS TRUE DESC, created_at, id LIMIT 1`;

/** The company as the sender of its invoices: what the SDI checks and the file name need. */
export interface Sender {
  vatNumber: string | null;
  country: string;
}

/** The stored invoice's own columns (the document's id and company come with the document). */
export type NewStoredInvoice = Pick<
  StoredInvoice,
  'progressivoInvio' | 'source' | 'xml' | 'signedFile' | 'invoice' | 'duplicateKey' | 'reconciliationIdentifier' | 'transmissionRequestedAt' | 'sentAt'
>;

/**
 * The SQL of e-invoices, in one place: the system's ProgressivoInvio, the rows an invoice creates (counterpart,
 * document, flows, stored file and JSON form), and the one way to load them back by document id (`loadStored`: the
 * share-invoice mail, the SDI channel and the read call use it). Creating is the API's ingest path: plain SQL, each
 * statement one round trip, prepared once per connection, the rows as PostgreSQL wrote them (`RETURNING *`).
 */
@Injectable()
export class InvoicesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The first statement of a create, in its transaction: the company's next ProgressivoInvio (null when every number
   * is used), the company as the sender (as committed now: the checks ran with an identity read earlier), and the
   * counterpart the invoice's party already is, if any (as counterpartFor() finds it). The counter row is locked until
   * the transaction ends, and a number taken by a committed invoice is never taken again (the counter only goes up).
   * The counterpart is read in the statement's snapshot, taken before the counter's lock was granted: a create that
   * waited there finds no counterpart a create before it made, and asks counterpartFor(), whose snapshot is later.
   */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, { vat_number: '01234567890', tax_number: null }] })
  async startCreate(
    manager: EntityManager,
    companyId: string,
    party: Pick<DerivedCounterpart, 'vat_number' | 'tax_number'> | null,
  ): Promise<{ progressivo: string | null; sender: Sender; counterpart: Counterpart | null }> {
    const [row] = await queryPrepared<
      Record<string, unknown> & { flusso_progressivo: string | null; flusso_vat_number: string | null; flusso_country: string }
    >(
      manager,
      `WITH progressivo AS (
         INSERT INTO sdi_progressivi (company_id, last) VALUES ($1, 1)
           ON CONFLICT (company_id) DO UPDATE SET last = sdi_progressivi.last + 1
           WHERE sdi_progressivi.last + 1 < $2
         RETURNING last
       )
       SELECT (SELECT last::text FROM progressivo) AS flusso_progressivo, company.vat_number AS flusso_vat_number,
              company.country AS flusso_country, counterpart.*
         FROM companies company
         LEFT JOIN LATERAL (${matchingCounterpart('$1', '$3', '$4')}) counterpart ON true
        WHERE company.id = $1`,
      [companyId, PROGRESSIVO_LIMIT, party?.vat_number ?? null, party?.tax_number ?? null],
    );
    if (!row) throw new Error(`Company ${companyId} not found`);
    return {
      progressivo: row.flusso_progressivo === null ? null : formatProgressivo(Number(row.flusso_progressivo)),
      sender: { vatNumber: row.flusso_vat_number, country: row.flusso_country },
      counterpart: row.id === null ? null : hydrate(manager, Counterpart, [row])[0],
    };
  }

  /**
   * Makes the company's counter continue after `last` (files the company sent before Flusso kept its counter, such as
   * the demo's): it never goes back.
   */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, 42] })
  async continueProgressivoAfter(manager: EntityManager, companyId: string, last: number): Promise<void> {
    await manager.query(
      `INSERT INTO sdi_progressivi (company_id, last) VALUES ($1, $2)
         ON CONFLICT (company_id) DO UPDATE SET last = greatest(sdi_progressivi.last, EXCLUDED.last)`,
      [companyId, last],
    );
  }

  /**
   * The stored invoice of a document of the company, or null when the document is not an e-invoice created through
   * Flusso (or doesn't exist, or is another company's: callers check the document first with findOwned).
   */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  async loadStored(manager: EntityManager, companyId: string, documentId: string): Promise<LoadedInvoice | null> {
    const stored = await manager.getRepository(StoredInvoice).findOneBy({ documentId, companyId });
    if (!stored) return null;
    const document = await manager.getRepository(Document).findOneByOrFail({ id: documentId });
    return { document, stored, invoice: stored.invoice, xml: stored.xml };
  }

  /** The stored invoice behind a signed link, by document id alone (the link's signature named it), with its document. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async findFile(documentId: string): Promise<{ stored: StoredInvoice; document: Document } | null> {
    const stored = await this.db.getRepository(StoredInvoice).findOneBy({ documentId });
    const document = stored && (await this.db.getRepository(Document).findOneBy({ id: stored.documentId }));
    return stored && document ? { stored, document } : null;
  }

  /** Whether the document is an e-invoice created through Flusso (it has a stored file). */
  @GenerateSql({ params: [DummyValue.UUID] })
  hasFile(documentId: string): Promise<boolean> {
    return this.db.getRepository(StoredInvoice).existsBy({ documentId });
  }

  /** Asks the SDI dispatcher to transmit the document's file (issuing a draft). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID] })
  async requestTransmission(manager: EntityManager, documentId: string): Promise<void> {
    await manager.getRepository(StoredInvoice).update({ documentId }, { transmissionRequestedAt: () => 'now()' });
  }

  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID] })
  async loadSender(manager: EntityManager, companyId: string): Promise<Sender> {
    const [row] = await queryPrepared<{ vat_number: string | null; country: string }>(manager, 'SELECT vat_number, country FROM companies WHERE id = $1', [
      companyId,
    ]);
    if (!row) throw new Error(`Company ${companyId} not found`);
    return { vatNumber: row.vat_number, country: row.country };
  }

  /** The counterpart with the invoice party's VAT number, else its tax code, else a new one. */
  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      DummyValue.COMPANY_ID,
      {
        company_name: DummyValue.STRING,
        vat_number: '01234567890',
        tax_number: null,
        address: DummyValue.STRING,
        city: DummyValue.STRING,
        postal_code: '00100',
        province_code: 'RM',
        country: 'IT',
        destination_code: null,
      },
    ],
  })
  async counterpartFor(manager: EntityManager, companyId: string, party: DerivedCounterpart): Promise<Counterpart> {
    const found = await queryPrepared(manager, matchingCounterpart('$1', '$2', '$3'), [companyId, party.vat_number, party.tax_number]);
    if (found.length) return hydrate(manager, Counterpart, found)[0];
    // Another request may create the same counterpart meanwhile: the VAT number is unique in the company.
    const created = await queryPrepared(
      manager,
      `INSERT INTO counterparts (company_id, company_name, address, city, postal_code, province_code, country, tax_number, vat_number, destination_code)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (company_id, vat_number) DO UPDATE SET vat_number = EXCLUDED.vat_number
       RETURNING *`,
      [
        companyId,
        party.company_name,
        party.address,
        party.city,
        party.postal_code,
        party.province_code,
        party.country,
        party.tax_number,
        party.vat_number,
        party.destination_code,
      ],
    );
    return hydrate(manager, Counterpart, created)[0];
  }

  /**
   * The document of an e-invoice, its flows and its stored invoice, in one statement (one round trip, atomic by
   * itself). Answers the document and flows as written: the document as PostgreSQL returns it, the flows as given,
   * with their ids chosen here and their timestamps the document's, so nothing needs reading back. A duplicate
   * invoice fails with the unique violation that isDuplicateInvoice() recognises (00404).
   */
  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      DummyValue.COMPANY_ID,
      {
        number: '1',
        tipo_documento: 'TD01',
        type: 'INVOICE',
        direction: 'ISSUED',
        format: 'FPR12',
        creation_date: DummyValue.DATE,
        gross_amount: { amount: '122.00', currency: 'EUR' },
        vat_amount: { amount: '22.00', currency: 'EUR' },
        counterpart: null,
        flows: [{ amount: { amount: '122.00', currency: 'EUR' }, payment_method: 'MP05', expected_payment_date: DummyValue.DATE }],
      } as unknown as DerivedDocument,
      { status: 'DRAFT', counterpartId: null, fileName: 'IT01234567890_00001.xml', sectionalId: null, progressive: null },
      {
        progressivoInvio: '00001',
        source: 'json',
        xml: Buffer.from('<FatturaElettronica/>'),
        signedFile: null,
        invoice: {},
        duplicateKey: DummyValue.STRING,
        reconciliationIdentifier: null,
        transmissionRequestedAt: null,
        sentAt: null,
      } as unknown as NewStoredInvoice,
    ],
  })
  async insertDocument(
    manager: EntityManager,
    companyId: string,
    derived: DerivedDocument,
    facts: { status: DocumentStatus; counterpartId: string | null; fileName: string; sectionalId: string | null; progressive: number | null },
    stored: NewStoredInvoice,
  ): Promise<{ document: Document; flows: Flow[] }> {
    const flowIds = derived.flows.map(() => randomUUID());
    const rows = await queryPrepared(
      manager,
      `WITH document AS (
         INSERT INTO documents (company_id, number, type, status, format, is_e_invoice, direction, currency, gross_amount, vat_amount, counterpart_id, creation_date, file_name, sectional_id, progressive)
           VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $9, $10, $11, $12, $25, $26)
         RETURNING *
       ), flow AS (
         INSERT INTO flows (id, company_id, document_id, amount, currency, paid_amount, payment_status, payment_method, expected_payment_date, created_at, updated_at)
           SELECT f.id, document.company_id, document.id, f.amount, f.currency, 0, 'TO_PAY', f.method, f.due, document.created_at, document.created_at
             FROM document, unnest($13::uuid[], $14::numeric[], $15::char(3)[], $16::text[], $17::date[]) AS f(id, amount, currency, method, due)
       ), invoice AS (
         INSERT INTO invoices (document_id, company_id, progressivo_invio, source, xml, invoice, duplicate_key, reconciliation_identifier, transmission_requested_at, signed_file, sent_at)
           SELECT document.id, document.company_id, $18, $19, $20, $21::jsonb, $22, $23, $24, $27, $28 FROM document
       )
       SELECT * FROM document`,
      [
        companyId,
        derived.number,
        derived.type,
        facts.status,
        derived.format,
        derived.direction,
        derived.gross_amount.currency,
        derived.gross_amount.amount,
        derived.vat_amount.amount,
        facts.counterpartId,
        derived.creation_date,
        facts.fileName,
        flowIds,
        derived.flows.map((f) => f.amount.amount),
        derived.flows.map((f) => f.amount.currency),
        derived.flows.map((f) => f.payment_method),
        derived.flows.map((f) => f.expected_payment_date),
        stored.progressivoInvio,
        stored.source,
        stored.xml,
        JSON.stringify(stored.invoice),
        stored.duplicateKey,
        stored.reconciliationIdentifier,
        stored.transmissionRequestedAt,
        facts.sectionalId,
        facts.progressive,
        stored.signedFile,
        stored.sentAt,
      ],
    );
    const [document] = hydrate(manager, Document, rows);
    const flows = derived.flows.map((flow, i): Flow => ({
      id: flowIds[i],
      companyId: document.companyId,
      documentId: document.id,
      amount: flow.amount.amount,
      currency: flow.amount.currency,
      paidAmount: '0',
      paymentStatus: 'TO_PAY',
      paymentMethod: flow.payment_method,
      expectedPaymentDate: flow.expected_payment_date,
      paymentDate: null,
      createdAt: document.createdAt,
      updatedAt: document.createdAt,
    }));
    return { document, flows };
  }
}
