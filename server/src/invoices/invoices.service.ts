import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, queryPointer } from '../common/errors/api-error.js';
import { canTransition } from '../documents/document-transitions.js';
import type { DocumentDto } from '../documents/document.dto.js';
import type { DocumentStatus } from '../documents/document.enums.js';
import { flowOrder, presentDocument } from '../documents/document.presenter.js';
import { DocumentsRepository } from '../documents/documents.repository.js';
import { DocumentsService } from '../documents/documents.service.js';
import { SectionalsService } from '../sectionals/sectionals.service.js';
import type { CreateInvoiceOptions } from './create-invoice-query.js';
import { companyIsBuyer, companyIsSeller, deriveDocument, duplicateKey, invoiceToXml, oneInvoicePerRequest, sdiChecks, vatNumber } from './fatturapa/index.js';
import { formOf, invalidInvoice, InvoiceReader, NUMBER_POINTER, sdiCheckFailed, type InvoiceBody } from './invoice-reader.js';
import { InvoicesRepository, isDuplicateInvoice, type Sender } from './invoices.repository.js';
import { namingProducts } from './product-defaults.js';

/** The SDI file name: the company's country and VAT number, `_`, the ProgressivoInvio (SDI rule 00001). */
function fileName(company: Sender, progressivo: string): string {
  const vat = (company.vatNumber ?? '').replace(/[\s.-]/g, '').toUpperCase();
  return `${/^[A-Z]{2}/.test(vat) ? vat : `${company.country}${vat}`}_${progressivo}.xml`;
}

/**
 * The sender identity of the companies this process created invoices for, as last read: a create checks its file
 * against it without a read of its own, and its transaction's first statement confirms it (SenderChanged otherwise).
 */
class KnownSenders {
  private static readonly LIMIT = 10_000;
  private readonly byCompany = new Map<string, Sender>();

  get(companyId: string): Sender | undefined {
    return this.byCompany.get(companyId);
  }

  remember(companyId: string, sender: Sender): Sender {
    if (this.byCompany.size >= KnownSenders.LIMIT && !this.byCompany.has(companyId)) this.byCompany.clear();
    this.byCompany.set(companyId, sender);
    return sender;
  }
}

/** A create's checks ran with a VAT number the company no longer has: `sender` is the company as it is now. */
class SenderChanged extends Error {
  constructor(readonly sender: Sender) {
    super("The company's VAT number changed during the create");
  }
}

/**
 * E-invoices: creating a document from a FatturaPA invoice (XML or JSON; read by InvoiceReader), receiving a
 * supplier's, and issuing a draft; reading them back is InvoiceFilesService's. What the SDI does next happens in the
 * worker (invoices/sdi/).
 */
@Injectable()
export class InvoicesService {
  private readonly senders = new KnownSenders();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly invoices: InvoicesRepository,
    private readonly reader: InvoiceReader,
    private readonly documentRows: DocumentsRepository,
    private readonly documents: DocumentsService,
    private readonly sectionals: SectionalsService,
  ) {}

  /**
   * Creates the document of one invoice, in a transaction of its own or, given `within`, in the caller's (the demo
   * loads its invoices in its own transaction).
   */
  async create(companyId: string, body: InvoiceBody, options: CreateInvoiceOptions, within?: EntityManager): Promise<DocumentDto[]> {
    if (within) return this.createAs(await this.invoices.loadSender(within, companyId), companyId, body, options, within);
    const remembered = this.senders.get(companyId);
    const known = remembered ?? this.senders.remember(companyId, await this.invoices.loadSender(this.db.manager, companyId));
    try {
      return await this.createAs(known, companyId, body, options);
    } catch (error) {
      // Checked against a VAT number the company no longer has, the file is checked again, once, with the new one:
      // the transaction found it changed, or the checks refused the file with a number this process remembered.
      const current =
        error instanceof SenderChanged
          ? error.sender
          : remembered && error instanceof ApiError && error.status === 422
            ? this.senders.remember(companyId, await this.invoices.loadSender(this.db.manager, companyId))
            : null;
      if (!current || current.vatNumber === known.vatNumber) throw error;
      try {
        return await this.createAs(current, companyId, body, options);
      } catch (again) {
        if (!(again instanceof SenderChanged)) throw again;
        throw ApiError.of('conflict', "The company's VAT number changed while the invoice was being created: send the invoice again.");
      }
    }
  }

  /**
   * The create, with the file checked against `sender` (the company as last seen); the transaction's first statement
   * reads the company again and ends the attempt (SenderChanged) if its VAT number is no longer that one.
   */
  private async createAs(sender: Sender, companyId: string, body: InvoiceBody, options: CreateInvoiceOptions, within?: EntityManager): Promise<DocumentDto[]> {
    const form = formOf(body);
    const signedFile = body.kind === 'signed' ? body.bytes : null;
    const sectionalId = options.sectionalId ?? null;
    if (sectionalId && form === 'xml') {
      throw ApiError.of(
        'invoice_number_given',
        'sectional_id numbers JSON invoices only: an XML file carries its own Numero (the FatturaPA schema requires one). Send the invoice as JSON without numero, or the XML without sectional_id.',
        queryPointer('sectional_id'),
      );
    }
    const identity = { vat_number: sender.vatNumber };
    const read =
      body.kind === 'json'
        ? await this.reader.readJson(within ?? this.db.manager, companyId, body.value, sectionalId !== null, options.productsReadable ?? true)
        : await this.reader.readFile(body, identity);
    const { invoice } = read;
    const several = oneInvoicePerRequest(invoice);
    if (several.length) throw invalidInvoice(several, form);
    const problems = read.sdiProblems ?? sdiChecks(invoice, identity);
    if (problems.length) throw sdiCheckFailed(read.defaults ? namingProducts(read.defaults, problems) : problems, form);
    const derived = deriveDocument(invoice, identity);
    const general = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento;

    const inTransaction = <T>(work: (manager: EntityManager) => Promise<T>) => (within ? work(within) : this.db.transaction(work));
    return inTransaction(async (manager) => {
      // The counter's row is the first lock and is held until commit: a company's creates go one at a time from here,
      // so the locks they take next (the sectional's row, a new counterpart's row) never cross into a deadlock.
      const { progressivo, sender: company, counterpart: found } = await this.invoices.startCreate(manager, companyId, derived.counterpart);
      this.senders.remember(companyId, company);
      if (company.vatNumber !== sender.vatNumber) throw new SenderChanged(company);
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
      const counterpart = found ?? (derived.counterpart ? await this.invoices.counterpartFor(manager, companyId, derived.counterpart) : null);
      const stored = {
        progressivoInvio: progressivo,
        source: form,
        xml: 'xml' in read ? read.xml : Buffer.from(invoiceToXml(invoice), 'utf8'),
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
      const { document, flows } = await this.invoices.insertDocument(manager, companyId, derived, facts, stored).catch((error: unknown) => {
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
          form,
        );
      });
      // It is presented from the rows as written (nothing is read back) and announced as such: `document.created`.
      const counterpartById = new Map(counterpart ? [[counterpart.id, counterpart]] : []);
      const flowsByDocument = new Map([[document.id, flows.sort(flowOrder)]]);
      const sectionalById = new Map(taken ? [[taken.sectionalId, taken.sectional]] : []);
      const presented = presentDocument(document, { categoryById: null, subcategoryById: null, counterpartById, sectionalById, flowsByDocument });
      await this.documents.recordCreated(manager, companyId, presented, document.updatedAt);
      return [presented];
    });
  }

  /**
   * A file a supplier sent the company, as the SDI hands it over (in development, from the sandbox helper and the
   * CLI): the company is its buyer, and it becomes a RECEIVED document, DELIVERED at once, with the seller as its
   * counterpart and payable flows from its payment data. The file is stored as received and readable at once. A file
   * the company already has (same seller, number, year and type: the SDI's 00404) is refused as a duplicate.
   */
  async receive(companyId: string, body: InvoiceBody): Promise<DocumentDto[]> {
    if (body.kind === 'json') {
      throw ApiError.of('unsupported_media_type', 'A received invoice is the file the SDI hands over: send it as application/xml (or application/pkcs7-mime).');
    }
    const signedFile = body.kind === 'signed' ? body.bytes : null;
    const company = await this.invoices.loadSender(this.db.manager, companyId);
    const identity = { vat_number: company.vatNumber };
    // The supplier sent it: the SDI's checks run without the sender rule, the buyer rule follows.
    const { invoice, xml, sdiProblems } = await this.reader.readFile(body, null);
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
      const counterpart = derived.counterpart ? await this.invoices.counterpartFor(manager, companyId, derived.counterpart) : null;
      const stored = {
        // The supplier's ProgressivoInvio is in the file; the company's counter numbers its own files only.
        progressivoInvio: null,
        source: 'xml' as const,
        xml,
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
      const { document, flows } = await this.invoices.insertDocument(manager, companyId, derived, facts, stored).catch((error: unknown) => {
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
      const presented = presentDocument(document, { categoryById: null, subcategoryById: null, counterpartById, sectionalById: new Map(), flowsByDocument });
      await this.documents.recordCreated(manager, companyId, presented, document.updatedAt);
      return [presented];
    });
  }

  /** Issues a DRAFT: it becomes CREATED and, for an e-invoice, goes to the SDI. */
  async issue(companyId: string, id: string): Promise<DocumentDto> {
    return this.db.transaction(async (manager) => {
      const document = await this.documents.lockOwned(manager, companyId, id);
      if (!canTransition(document.status, 'CREATED')) {
        throw ApiError.of('invalid_state', `The document is ${document.status}: only a DRAFT can be issued.`);
      }
      await this.documentRows.setStatus(manager, document, 'CREATED');
      await this.invoices.requestTransmission(manager, document.id);
      return this.documents.recordUpdated(manager, document);
    });
  }
}
