import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/validation/uuid.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DocumentsRepository } from '../documents/documents.repository.js';
import type { EInvoice } from './fatturapa/index.js';
import { signInvoiceLink, verifyInvoiceLink, type InvoiceFileForm } from './invoice-link.js';
import { InvoicesRepository } from './invoices.repository.js';

/** The invoice response: the invoice's JSON form and the temporary link to its XML (null until sent to the SDI). */
export type InvoiceResponse = EInvoice & { xml_url: string | null; signed_file_url: string | null };

/** Reading an e-invoice back: its JSON form with signed, temporary links to its files, and the files behind them. */
@Injectable()
export class InvoiceFilesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly documents: DocumentsRepository,
    private readonly invoices: InvoicesRepository,
  ) {}

  /** The invoice of an e-invoice document, with a link to its XML once the SDI has it. */
  async get(companyId: string, id: string, baseUrl: string): Promise<InvoiceResponse> {
    const document = await this.documents.findOwned(this.db.manager, companyId, id);
    const loaded = await this.invoices.loadStored(this.db.manager, companyId, document.id);
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
    const found = await this.invoices.findFile(documentId.toLowerCase());
    if (!found || !found.stored.sentAt) throw ApiError.notFound('Invoice');
    const { stored, document } = found;
    const name = document.fileName ?? `${document.id}.xml`;
    if (which === 'p7m') {
      if (!stored.signedFile) throw ApiError.notFound('Invoice');
      return { bytes: stored.signedFile, fileName: name, contentType: 'application/pkcs7-mime' };
    }
    // The XML a signed file carries is named as the SDI names the content of `….xml.p7m`.
    return { bytes: stored.xml, fileName: name.replace(/\.p7m$/, ''), contentType: 'application/xml' };
  }
}
