import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { isUuid } from '../common/validation/uuid.js';
import { ApiError, errorItem, queryPointer, type ErrorItem } from '../common/errors/api-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../common/errors/error-response.js';
import { rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { canTransition } from '../documents/document-transitions.js';
import type { DocumentDto } from '../documents/document.dto.js';
import type { DocumentStatus } from '../documents/document.enums.js';
import { Document } from '../documents/document.entity.js';
import { flowOrder, presentDocument } from '../documents/document.presenter.js';
import { DocumentsService } from '../documents/documents.service.js';
import { companyProducts } from '../products/products.service.js';
import { SectionalsService } from '../sectionals/sectionals.service.js';
import {
  companyIsBuyer,
  companyIsSeller,
  deriveDocument,
  duplicateKey,
  invoiceToXml,
  MAX_INVOICE_BYTES,
  oneInvoicePerRequest,
  sdiChecks,
  validateInvoiceJson,
  XmlPool,
  XmlPoolBusy,
  type CompanyIdentity,
  vatNumber,
  type EInvoice,
  type InvoiceProblem,
  type SdiProblem,
} from './fatturapa/index.js';
import { StoredInvoice } from './invoice.entity.js';
import { signInvoiceLink, verifyInvoiceLink, type InvoiceFileForm } from './invoice-link.js';
import { openSignedFile } from './signed/signed-file.js';
import { counterpartFor, insertInvoiceDocument, isDuplicateInvoice, loadSender, loadStoredInvoice, nextProgressivo, type Sender } from './invoice-store.js';
import { applyProductDefaults, namingProducts, productLines, withProductProblems, type ProductDefaults } from './product-defaults.js';

/** Error items answered for one request at most; a file broken everywhere says so in the last one. */
const MAX_ERROR_ITEMS = 100;

/** The body of a create-invoice request, as the content type says it came. */
/** What create-invoice reads: the XML file, its JSON form, or a signed file (CAdES .p7m) carrying the XML. */
export type InvoiceBody = { kind: 'xml'; bytes: Buffer } | { kind: 'json'; value: unknown } | { kind: 'signed'; bytes: Buffer };
type ReadableBody = Exclude<InvoiceBody, { kind: 'signed' }>;

export interface CreateInvoiceOptions {
  issue: boolean;
  reconciliationIdentifier: string | null;
  /** The sectional that numbers the invoice (a JSON invoice without `numero`), or null: the invoice has its number. */
  sectionalId?: string | null;
  /**
   * Whether the caller may read the company's products (`products:read`): a line that names a `product_id` takes the
   * product's values, so it needs that permission too. Unset for Flusso's own callers (the demo).
   */
  productsReadable?: boolean;
}

/** The invoice response: the invoice's JSON form and the temporary link to its XML (null until sent to the SDI). */
export type InvoiceResponse = EInvoice & { xml_url: string | null; signed_file_url: string | null };

/** A placeholder that lets a JSON invoice without `progressivo_invio` pass the model: Flusso writes its own. */
const PROGRESSIVO_PLACEHOLDER = '00000';
/** The same for `numero` when a sectional numbers the invoice: replaced by the number taken before anything is written. */
const NUMBER_PLACEHOLDER = '0';
const NUMBER_POINTER = '/fattura_elettronica_body/0/dati_generali/dati_generali_documento/numero';

function capped(items: ErrorItem[]): ErrorItem[] {
  if (items.length <= MAX_ERROR_ITEMS) return items;
  const rest = items.length - (MAX_ERROR_ITEMS - 1);
  return [...items.slice(0, MAX_ERROR_ITEMS - 1), { ...items[MAX_ERROR_ITEMS - 1], detail: `… and ${rest} more problems of the same kind or others.` }];
}

/** Where a problem is, as the request wrote it: an XML path for XML, a JSON Pointer for JSON ('' for the whole invoice). */
const pointerOf = (problem: { pointer: string; path: string }, kind: ReadableBody['kind']) => (kind === 'xml' ? problem.path : problem.pointer);

function invalidInvoice(problems: readonly InvoiceProblem[], kind: ReadableBody['kind']): ApiError {
  return new ApiError(
    422,
    capped(problems.map((p) => errorItem('invalid_invoice', p.line !== undefined ? `${p.message} (line ${p.line})` : p.message, pointerOf(p, kind)))),
  );
}

function sdiCheckFailed(problems: readonly SdiProblem[], kind: ReadableBody['kind']): ApiError {
  return new ApiError(422, capped(problems.map((p) => errorItem('sdi_check_failed', p.code ? `${p.code}: ${p.message}` : p.message, pointerOf(p, kind)))));
}

/** The SDI file name: the company's country and VAT number, `_`, the ProgressivoInvio (SDI rule 00001). */
function fileName(company: Sender, progressivo: string): string {
  const vat = (company.vatNumber ?? '').replace(/[\s.-]/g, '').toUpperCase();
  return `${/^[A-Z]{2}/.test(vat) ? vat : `${company.country}${vat}`}_${progressivo}.xml`;
}

/**
 * A signed file is opened first (its envelope must hold, signed-file.ts); everything after reads the XML it carries as
 * if it had been sent alone, and the envelope is kept to be stored and transmitted as received.
 */
async function opened(sent: InvoiceBody): Promise<{ body: ReadableBody; signedFile: Buffer | null }> {
  if (sent.kind !== 'signed') return { body: sent, signedFile: null };
  const file = await openSignedFile(sent.bytes);
  if (!file.ok) throw ApiError.of('invalid_signed_file', file.reason);
  return { body: { kind: 'xml', bytes: file.content }, signedFile: sent.bytes };
}

/** A reconciliation_identifier: 1 to 140 printable ASCII characters, no space at either end. */
export const RECONCILIATION_IDENTIFIER = /^[\x21-\x7E](?:[\x20-\x7E]{0,138}[\x21-\x7E])?$/;

/** Parses the create-invoice query: `issue` (true/false, default false), `reconciliation_identifier`, `sectional_id`. */
export function parseCreateInvoiceQuery(query: QueryParams): CreateInvoiceOptions {
  rejectUnknownParams(query, ['issue', 'reconciliation_identifier', 'sectional_id']);
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value !== undefined && typeof value !== 'string') throw ApiError.badQuery(name, `${name} may be given once.`);
    return value;
  };
  const issue = single('issue');
  if (issue !== undefined && issue !== 'true' && issue !== 'false') throw ApiError.badQuery('issue', `issue must be true or false, got "${issue}".`);
  const identifier = single('reconciliation_identifier');
  if (identifier !== undefined && !RECONCILIATION_IDENTIFIER.test(identifier)) {
    throw ApiError.badQuery(
      'reconciliation_identifier',
      'reconciliation_identifier must be 1 to 140 printable ASCII characters, not starting or ending with a space.',
    );
  }
  const sectionalId = single('sectional_id');
  if (sectionalId !== undefined && !isUuid(sectionalId)) throw ApiError.badQuery('sectional_id', 'sectional_id must be the uuid of a sectional.');
  return { issue: issue === 'true', reconciliationIdentifier: identifier ?? null, sectionalId: sectionalId ?? null };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * E-invoices: creating a document from a FatturaPA invoice (XML or JSON), issuing a draft, and reading the invoice
 * back with a temporary link to its XML. What the SDI does next happens in the worker (invoices/sdi/).
 */
@Injectable()
export class InvoicesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly documents: DocumentsService,
    private readonly sectionals: SectionalsService,
    private readonly xml: XmlPool,
  ) {}

  /**
   * Reads an XML body, checks it against the schema and, when it holds one invoice, runs the SDI's checks for the
   * company: all of it in the XML pool, off the event loop.
   */
  private async readXml(bytes: Buffer, company: CompanyIdentity | null): Promise<{ invoice: EInvoice; defaults: null; sdiProblems: SdiProblem[] }> {
    const checked = await this.xml.check(bytes, company).catch((error: unknown) => {
      if (!(error instanceof XmlPoolBusy)) throw error;
      const detail = 'Every invoice reader is busy; nothing was changed, try again shortly.';
      throw ApiError.of('service_unavailable', detail, undefined, { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
    });
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

  /**
   * Reads a JSON body: fills what Flusso writes itself (`progressivo_invio`; `numero` when a sectional numbers the
   * invoice) and what lines take from their products, then checks it against the schema. Works on a copy: the
   * request's body stays as sent.
   */
  private async readJson(
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
    const products = await companyProducts(manager, companyId, productIds);
    const defaults = applyProductDefaults(lines, products);
    const checked = validateInvoiceJson(copy);
    if (!checked.invoice || defaults.problems.length) throw invalidInvoice(withProductProblems(defaults, checked.problems), 'json');
    return { invoice: checked.invoice, defaults, sdiProblems: null };
  }

  /**
   * Creates the document of one invoice, in a transaction of its own or, given `within`, in the caller's (the demo
   * loads its invoices in its own transaction).
   */
  async create(companyId: string, sent: InvoiceBody, options: CreateInvoiceOptions, within?: EntityManager): Promise<DocumentDto[]> {
    const { body, signedFile } = await opened(sent);
    const sectionalId = options.sectionalId ?? null;
    if (sectionalId && body.kind === 'xml') {
      throw ApiError.of(
        'invoice_number_given',
        'sectional_id numbers JSON invoices only: an XML file carries its own Numero (the FatturaPA schema requires one). Send the invoice as JSON without numero, or the XML without sectional_id.',
        queryPointer('sectional_id'),
      );
    }
    const company = await loadSender(within ?? this.db.manager, companyId);
    const identity = { vat_number: company.vatNumber };
    const read =
      body.kind === 'xml'
        ? await this.readXml(body.bytes, identity)
        : await this.readJson(within ?? this.db.manager, companyId, body.value, sectionalId !== null, options.productsReadable ?? true);
    const { invoice } = read;
    const several = oneInvoicePerRequest(invoice);
    if (several.length) throw invalidInvoice(several, body.kind);
    const problems = read.sdiProblems ?? sdiChecks(invoice, identity);
    if (problems.length) throw sdiCheckFailed(read.defaults ? namingProducts(read.defaults, problems) : problems, body.kind);
    const derived = deriveDocument(invoice, identity);
    const general = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento;

    const inTransaction = <T>(work: (manager: EntityManager) => Promise<T>) => (within ? work(within) : this.db.transaction(work));
    return inTransaction(async (manager) => {
      // The counter's row is the first lock and is held until commit: a company's creates go one at a time from here,
      // so the locks they take next (the sectional's row, a new counterpart's row) never cross into a deadlock.
      const progressivo = await nextProgressivo(manager, companyId);
      if (!progressivo) throw ApiError.of('unprocessable_entity', 'The company has used every ProgressivoInvio (36^5 files): ask Flusso support.');
      if (body.kind === 'json') invoice.fattura_elettronica_header.dati_trasmissione.progressivo_invio = progressivo;
      // The sectional's next number rolls back with the rest when the create fails: no gap.
      const taken = sectionalId
        ? await this.sectionals.takeNumber(manager, companyId, sectionalId, Number(general.data.slice(0, 4)), queryPointer('sectional_id'))
        : null;
      if (taken) {
        general.numero = taken.number;
        derived.number = taken.number;
      }
      const counterpart = derived.counterpart ? await counterpartFor(manager, companyId, derived.counterpart) : null;
      const stored = {
        progressivoInvio: progressivo,
        source: body.kind,
        xml: body.kind === 'xml' ? body.bytes : Buffer.from(invoiceToXml(invoice), 'utf8'),
        signedFile,
        invoice,
        duplicateKey: duplicateKey(invoice),
        reconciliationIdentifier: options.reconciliationIdentifier,
        transmissionRequestedAt: options.issue ? new Date() : null,
        sentAt: null,
      };
      const status: DocumentStatus = options.issue ? 'CREATED' : 'DRAFT';
      const facts = {
        status,
        counterpartId: counterpart?.id ?? null,
        fileName: fileName(company, progressivo) + (signedFile ? '.p7m' : ''),
        sectionalId: taken?.sectionalId ?? null,
        progressive: taken?.progressive ?? null,
      };
      const { document, flows } = await insertInvoiceDocument(manager, companyId, derived, facts, stored).catch((error: unknown) => {
        if (!isDuplicateInvoice(error)) throw error;
        const which = `invoice ${general.numero} of ${general.data.slice(0, 4)} (${general.tipo_documento}) from this seller`;
        throw sdiCheckFailed(
          [
            {
              code: '00404',
              pointer: taken ? queryPointer('sectional_id') : NUMBER_POINTER,
              path: taken ? queryPointer('sectional_id') : '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Numero',
              message: taken
                ? `The sectional's next number is ${general.numero}, and the company already has ${which}, created with a number of its own: the SDI refuses duplicates. The number was not used.`
                : `The company already has ${which}: the SDI refuses duplicates. A discarded invoice may be sent again.`,
            },
          ],
          body.kind,
        );
      });
      // A new document is version 1 and announces nothing: `document.updated` is for its changes (DocumentsService).
      // It is presented from the rows as written: nothing is read back.
      const counterpartById = new Map(counterpart ? [[counterpart.id, counterpart]] : []);
      const flowsByDocument = new Map([[document.id, flows.sort(flowOrder)]]);
      const sectionalById = new Map(taken ? [[taken.sectionalId, taken.sectional]] : []);
      return [presentDocument(document, { categoryById: null, subcategoryById: null, counterpartById, sectionalById, flowsByDocument })];
    });
  }

  /**
   * A file a supplier sent the company, as the SDI hands it over (in development, from the sandbox helper and the
   * CLI): the company is its buyer, and it becomes a RECEIVED document, DELIVERED at once, with the seller as its
   * counterpart and payable flows from its payment data. The file is stored as received and readable at once. A file
   * the company already has (same seller, number, year and type: the SDI's 00404) is refused as a duplicate.
   */
  async receive(companyId: string, sent: InvoiceBody): Promise<DocumentDto[]> {
    const { body, signedFile } = await opened(sent);
    if (body.kind !== 'xml') {
      throw ApiError.of('unsupported_media_type', 'A received invoice is the file the SDI hands over: send it as application/xml (or application/pkcs7-mime).');
    }
    const company = await loadSender(this.db.manager, companyId);
    const identity = { vat_number: company.vatNumber };
    // The supplier sent it: the SDI's checks run without the sender rule, the buyer rule follows.
    const { invoice, sdiProblems } = await this.readXml(body.bytes, null);
    const several = oneInvoicePerRequest(invoice);
    if (several.length) throw invalidInvoice(several, 'xml');
    const problems = [...sdiProblems];
    if (!companyIsBuyer(invoice, identity) || companyIsSeller(invoice, identity)) {
      problems.push({
        code: null,
        pointer: '/fattura_elettronica_header/cessionario_committente/dati_anagrafici',
        path: '/FatturaElettronicaHeader/CessionarioCommittente/DatiAnagrafici',
        message:
          "The company must be the buyer (CessionarioCommittente) of a received invoice, and not its seller: the buyer's VAT number is not the company's",
      });
    }
    if (problems.length) throw sdiCheckFailed(problems, 'xml');
    const derived = deriveDocument(invoice, identity);
    const transmission = invoice.fattura_elettronica_header.dati_trasmissione;
    // The file name goes into download headers: only the letters and digits of the sender's identity and number.
    const safe = (text: string | null) => (text ?? '').replace(/[^0-9A-Za-z]/g, '');
    const sender = safe(vatNumber(transmission.id_trasmittente));
    return this.db.transaction(async (manager) => {
      const counterpart = derived.counterpart ? await counterpartFor(manager, companyId, derived.counterpart) : null;
      const stored = {
        // The supplier's ProgressivoInvio is in the file; the company's counter numbers its own files only.
        progressivoInvio: null,
        source: 'xml' as const,
        xml: body.bytes,
        signedFile,
        invoice,
        duplicateKey: duplicateKey(invoice),
        reconciliationIdentifier: null,
        transmissionRequestedAt: null,
        sentAt: new Date(),
      };
      const facts = {
        status: 'DELIVERED' as const,
        counterpartId: counterpart?.id ?? null,
        // Named as the SDI names the sender's file: its transmitter's VAT number and ProgressivoInvio.
        fileName: `${sender}_${safe(transmission.progressivo_invio)}.xml${signedFile ? '.p7m' : ''}`,
        sectionalId: null,
        progressive: null,
      };
      const { document, flows } = await insertInvoiceDocument(manager, companyId, derived, facts, stored).catch((error: unknown) => {
        if (!isDuplicateInvoice(error)) throw error;
        const general = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento;
        throw sdiCheckFailed(
          [
            {
              code: '00404',
              pointer: NUMBER_POINTER,
              path: '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Numero',
              message: `The company already has invoice ${general.numero} of ${general.data.slice(0, 4)} (${general.tipo_documento}) from this seller: the SDI refuses duplicates.`,
            },
          ],
          'xml',
        );
      });
      const counterpartById = new Map(counterpart ? [[counterpart.id, counterpart]] : []);
      const flowsByDocument = new Map([[document.id, flows.sort(flowOrder)]]);
      return [presentDocument(document, { categoryById: null, subcategoryById: null, counterpartById, sectionalById: new Map(), flowsByDocument })];
    });
  }

  /** Issues a DRAFT: it becomes CREATED and, for an e-invoice, goes to the SDI. */
  async issue(companyId: string, id: string): Promise<DocumentDto> {
    return this.db.transaction(async (manager) => {
      const document = await this.documents.lockOwned(manager, companyId, id);
      if (!canTransition(document.status, 'CREATED')) {
        throw ApiError.of('invalid_state', `The document is ${document.status}: only a DRAFT can be issued.`);
      }
      await manager.getRepository(Document).update({ companyId: document.companyId, id: document.id }, { status: 'CREATED' });
      await manager.getRepository(StoredInvoice).update({ documentId: document.id }, { transmissionRequestedAt: () => 'now()' });
      return this.documents.recordUpdated(manager, document);
    });
  }

  /** The invoice of an e-invoice document, with a link to its XML once the SDI has it. */
  async get(companyId: string, id: string, baseUrl: string): Promise<InvoiceResponse> {
    const document = await findOwned(this.db.getRepository(Document), companyId, id, 'Document');
    const loaded = await loadStoredInvoice(this.db.manager, companyId, document.id);
    if (!loaded) throw ApiError.of('not_found', 'This document is not an e-invoice created through Flusso: it has no invoice.');
    const expires = Math.floor(Date.now() / 1000) + this.config.invoices.linkTtlSeconds;
    const link = (form: InvoiceFileForm) => baseUrl + signInvoiceLink(this.config.invoices.linkKey, document.id, expires, form);
    const sent = loaded.stored.sentAt !== null;
    return { ...loaded.invoice, xml_url: sent ? link('xml') : null, signed_file_url: sent && loaded.stored.signedFile ? link('p7m') : null };
  }

  /** The file behind a signed link (the XML, or the signed file as received), with its name and type; refused when the link expired or was altered. */
  async file(
    documentId: string,
    expires: string | undefined,
    signature: string | undefined,
    form: string | undefined,
  ): Promise<{ bytes: Buffer; fileName: string; contentType: string }> {
    if (!isUuid(documentId) || (form !== undefined && form !== 'p7m')) throw ApiError.notFound('Invoice');
    const which: InvoiceFileForm = form ?? 'xml';
    const verdict = verifyInvoiceLink(this.config.invoices.linkKey, documentId, expires, signature, Math.floor(Date.now() / 1000), which);
    if (verdict === 'expired') throw ApiError.forbidden('This link to the invoice has expired: read the invoice again for a new one.');
    if (verdict === 'invalid') throw ApiError.forbidden('This link to the invoice is not valid: its signature does not match.');
    const stored = await this.db.getRepository(StoredInvoice).findOneBy({ documentId: documentId.toLowerCase() });
    const document = stored && (await this.db.getRepository(Document).findOneBy({ id: stored.documentId }));
    if (!stored || !document || !stored.sentAt) throw ApiError.notFound('Invoice');
    const name = document.fileName ?? `${document.id}.xml`;
    if (which === 'p7m') {
      if (!stored.signedFile) throw ApiError.notFound('Invoice');
      return { bytes: stored.signedFile, fileName: name, contentType: 'application/pkcs7-mime' };
    }
    // The XML a signed file carries is named as the SDI names the content of `….xml.p7m`.
    return { bytes: stored.xml, fileName: name.replace(/\.p7m$/, ''), contentType: 'application/xml' };
  }
}
