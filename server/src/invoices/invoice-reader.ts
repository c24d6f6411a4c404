import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError, errorItem, type ErrorItem } from '../common/errors/api-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../common/errors/error-response.js';
import {
  MAX_INVOICE_BYTES,
  validateInvoiceJson,
  XmlPool,
  XmlPoolBusy,
  type CheckedInvoiceXml,
  type CompanyIdentity,
  type EInvoice,
  type InvoiceProblem,
  type SdiProblem,
} from './fatturapa/index.js';
import { ProductCatalogue } from './product-catalogue.js';
import { applyProductDefaults, productLines, withProductProblems, type ProductDefaults } from './product-defaults.js';

/*
 * Reading a create-invoice body: the signed envelope opened and the XML read and checked against the schema and the
 * SDI's checks (all of it in the XML pool), or the JSON checked against the schema with its lines filled from their
 * products; and the 4xx answers of all that.
 */

/** Error items answered for one request at most; a file broken everywhere says so in the last one. */
const MAX_ERROR_ITEMS = 100;

/** What create-invoice reads: the XML file, its JSON form, or a signed file (CAdES .p7m) carrying the XML. */
export type InvoiceBody = { kind: 'xml'; bytes: Buffer } | { kind: 'json'; value: unknown } | { kind: 'signed'; bytes: Buffer };
/** A file body: the XML, or the signed file carrying it. */
export type FileBody = Exclude<InvoiceBody, { kind: 'json' }>;
/** How a body's problems are pointed at: XML paths for a file (signed or not), JSON Pointers for JSON. */
export type BodyForm = 'xml' | 'json';
export const formOf = (body: InvoiceBody): BodyForm => (body.kind === 'json' ? 'json' : 'xml');

/** A placeholder that lets a JSON invoice without `progressivo_invio` pass the model: Flusso writes its own. */
const PROGRESSIVO_PLACEHOLDER = '00000';
/** The same for `numero` when a sectional numbers the invoice: replaced by the number taken before anything is written. */
const NUMBER_PLACEHOLDER = '0';
/** Where a JSON invoice has its number. */
export const NUMBER_POINTER = '/fattura_elettronica_body/0/dati_generali/dati_generali_documento/numero';

function capped(items: ErrorItem[]): ErrorItem[] {
  if (items.length <= MAX_ERROR_ITEMS) return items;
  const rest = items.length - (MAX_ERROR_ITEMS - 1);
  return [...items.slice(0, MAX_ERROR_ITEMS - 1), { ...items[MAX_ERROR_ITEMS - 1], detail: `… and ${rest} more problems of the same kind or others.` }];
}

/** Where a problem is, as the request wrote it: an XML path for XML, a JSON Pointer for JSON ('' for the whole invoice). */
const pointerOf = (problem: { pointer: string; path: string }, kind: BodyForm) => (kind === 'xml' ? problem.path : problem.pointer);

export function invalidInvoice(problems: readonly InvoiceProblem[], kind: BodyForm): ApiError {
  return new ApiError(
    422,
    capped(problems.map((p) => errorItem('invalid_invoice', p.line !== undefined ? `${p.message} (line ${p.line})` : p.message, pointerOf(p, kind)))),
  );
}

export function sdiCheckFailed(problems: readonly SdiProblem[], kind: BodyForm): ApiError {
  return new ApiError(422, capped(problems.map((p) => errorItem('sdi_check_failed', p.code ? `${p.code}: ${p.message}` : p.message, pointerOf(p, kind)))));
}

/** What a 503 says when the XML pool cannot answer for a file (XmlPoolBusy's reasons). */
const POOL_UNAVAILABLE: Record<XmlPoolBusy['reason'], string> = {
  busy: 'Every invoice reader is busy; nothing was changed, try again shortly.',
  stopping: 'The invoice readers are stopping with this server; nothing was changed, try again shortly.',
  stopped: 'The invoice reader stopped while reading the file; nothing was changed, try again shortly.',
};

/** When the XML pool cannot answer (XmlPoolBusy), a 503 that says when to try again: nothing was written. */
export function readerAnswer<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (!(error instanceof XmlPoolBusy)) throw error;
    throw ApiError.of('service_unavailable', POOL_UNAVAILABLE[error.reason], undefined, { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
  });
}

/** The invoice of a file the pool checked, or the answer that refuses it. */
function verdict(checked: CheckedInvoiceXml): { invoice: EInvoice; defaults: null; sdiProblems: SdiProblem[] } {
  const { refusal } = checked;
  if (refusal?.reason === 'too_large') {
    throw ApiError.of('payload_too_large', `The invoice file is over ${MAX_INVOICE_BYTES / 1024 / 1024} MB, the SDI's limit (its error 00003).`);
  }
  if (refusal?.reason === 'too_complex') throw ApiError.of('invoice_too_complex', refusal.message);
  if (refusal) {
    const line = refusal.reason === 'malformed' && refusal.line ? ` (line ${refusal.line})` : '';
    throw ApiError.of('invalid_invoice_xml', `${refusal.message}${line}`);
  }
  if (!checked.invoice) throw invalidInvoice(checked.problems, 'xml');
  return { invoice: checked.invoice, defaults: null, sdiProblems: checked.sdiProblems };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads invoices as create-invoice and the received-invoice helper send them. */
@Injectable()
export class InvoiceReader {
  constructor(
    private readonly xml: XmlPool,
    private readonly catalogue: ProductCatalogue,
  ) {}

  /**
   * Reads a file body: a signed file is opened (its envelope must hold, signed-file.ts) and the XML it carries read as
   * if it had been sent alone. The XML is checked against the schema and, when it holds one invoice, by the SDI's
   * checks for the company: all of it in the XML pool, off the event loop. Answers the XML's bytes with the invoice.
   */
  async readFile(file: FileBody, company: CompanyIdentity | null): Promise<{ invoice: EInvoice; xml: Buffer; defaults: null; sdiProblems: SdiProblem[] }> {
    if (file.kind === 'xml') return { ...verdict(await readerAnswer(this.xml.check(file.bytes, company))), xml: file.bytes };
    const signed = await readerAnswer(this.xml.checkSigned(file.bytes, company));
    if (!signed.ok) throw ApiError.of('invalid_signed_file', signed.reason);
    return { ...verdict(signed.checked), xml: signed.content };
  }

  /**
   * Reads a JSON body: fills what Flusso writes itself (`progressivo_invio`; `numero` when a sectional numbers the
   * invoice) and what lines take from their products, then checks it against the schema. Works on a copy: the
   * request's body stays as sent.
   */
  async readJson(
    manager: EntityManager,
    companyId: string,
    value: unknown,
    numbered: boolean,
    productsReadable: boolean,
  ): Promise<{ invoice: EInvoice; defaults: ProductDefaults; sdiProblems: null }> {
    const copy = structuredClone(value);
    const header = isObject(copy) && isObject(copy.fattura_elettronica_header) ? copy.fattura_elettronica_header : undefined;
    const transmission = header?.dati_trasmissione;
    if (isObject(transmission) && !('progressivo_invio' in transmission)) transmission.progressivo_invio = PROGRESSIVO_PLACEHOLDER;
    if (numbered && isObject(copy) && Array.isArray(copy.fattura_elettronica_body)) {
      (copy.fattura_elettronica_body as unknown[]).forEach((body, b) => {
        const general = isObject(body) && isObject(body.dati_generali) ? body.dati_generali.dati_generali_documento : undefined;
        if (!isObject(general)) return;
        if (general.numero !== undefined && general.numero !== null && general.numero !== '') {
          throw ApiError.of(
            'invoice_number_given',
            `The invoice has the number ${JSON.stringify(general.numero)} and sectional_id asks for the sectional's next one: leave numero out, or don't send sectional_id.`,
            `/fattura_elettronica_body/${b}/dati_generali/dati_generali_documento/numero`,
          );
        }
        general.numero = NUMBER_PLACEHOLDER;
      });
    }
    const lines = productLines(copy);
    const productIds = lines.flatMap((line) => (line.productId ? [line.productId] : []));
    if (productIds.length && !productsReadable) throw ApiError.insufficientPermission('products:read');
    const products = await this.catalogue.products(manager, companyId, productIds);
    const defaults = applyProductDefaults(lines, products);
    const checked = validateInvoiceJson(copy);
    if (!checked.invoice || defaults.problems.length) throw invalidInvoice(withProductProblems(defaults, checked.problems), 'json');
    return { invoice: checked.invoice, defaults, sdiProblems: null };
  }
}
