/**
 * The SQL of e-invoices, in one place: the system's ProgressivoInvio, the stored file and its JSON form, and the one
 * way to load them back by document id (`loadStoredInvoice`: the share-invoice mail and the read call use it).
 */
import type { EntityManager } from 'typeorm';
import { Document } from '../documents/document.entity.js';
import { StoredInvoice } from './invoice.entity.js';
import type { Invoice } from './fatturapa/index.js';

/** ProgressivoInvio is five characters [0-9A-Z]: the counter in base 36, zero-padded (00001, …, 0000Z, 00010, …). */
export const PROGRESSIVO_LIMIT = 36 ** 5;

export const formatProgressivo = (n: number): string => n.toString(36).toUpperCase().padStart(5, '0');

/**
 * The company's next ProgressivoInvio. The counter row is locked until the caller's transaction ends, and a number
 * taken by a committed invoice is never taken again (the counter only goes up).
 */
export async function nextProgressivo(manager: EntityManager, companyId: string): Promise<string | null> {
  const [row]: Array<{ last: string }> = await manager.query(
    `INSERT INTO sdi_progressivi (company_id, last) VALUES ($1, 1)
       ON CONFLICT (company_id) DO UPDATE SET last = sdi_progressivi.last + 1
       WHERE sdi_progressivi.last + 1 < $2
     RETURNING last::text`,
    [companyId, PROGRESSIVO_LIMIT],
  );
  return row ? formatProgressivo(Number(row.last)) : null;
}

/**
 * Makes the company's counter continue after `last` (files the company sent before Flusso kept its counter, such as
 * the demo's): it never goes back.
 */
export async function continueProgressivoAfter(manager: EntityManager, companyId: string, last: number): Promise<void> {
  await manager.query(
    `INSERT INTO sdi_progressivi (company_id, last) VALUES ($1, $2)
       ON CONFLICT (company_id) DO UPDATE SET last = greatest(sdi_progressivi.last, EXCLUDED.last)`,
    [companyId, last],
  );
}

/** An e-invoice document with its stored file. */
export interface LoadedInvoice {
  document: Document;
  stored: StoredInvoice;
  /** The invoice's JSON form. */
  invoice: Invoice;
  /** The file's bytes, as received (or as written from JSON). */
  xml: Buffer;
}

/**
 * The stored invoice of a document of the company, or null when the document is not an e-invoice created through
 * Flusso (or doesn't exist, or is another company's: callers check the document first with findOwned).
 */
export async function loadStoredInvoice(manager: EntityManager, companyId: string, documentId: string): Promise<LoadedInvoice | null> {
  const stored = await manager.getRepository(StoredInvoice).findOneBy({ documentId, companyId });
  if (!stored) return null;
  const document = await manager.getRepository(Document).findOneByOrFail({ id: documentId });
  return { document, stored, invoice: stored.invoice, xml: stored.xml };
}

/** True when the failure is the SDI's duplicate rule (00404): the company already has an invoice with that key. */
export function isDuplicateInvoice(error: unknown): boolean {
  const driver = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driver?.code === '23505' && driver.constraint === 'invoices_company_id_duplicate_key_key';
}
