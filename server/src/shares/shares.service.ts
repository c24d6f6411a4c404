import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isEmailAddress } from '../common/validation/email.js';
import { DataSource } from 'typeorm';
import { ApiError, errorItem } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import type { MailMessage } from '../deliveries/delivery.entity.js';
import { signInvoiceLink } from '../invoices/invoice-link.js';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import { courtesyCopy } from './courtesy-copy.js';
import { MAX_RECIPIENTS, type InvoiceShareDto, type ShareInvoiceDto } from './share.dto.js';
import type { InvoiceShare } from './share.entity.js';
import { shareList, SharesRepository } from './shares.repository.js';

export { shareList } from './shares.repository.js';

/** Why an invoice cannot be shared yet, or any more; null when it can (the SDI has taken it and did not discard it). */
function notShareable(status: string, sentToSdi: boolean): string | null {
  if (status === 'DRAFT') return 'The invoice is a DRAFT: issue it first; a courtesy copy accompanies an invoice sent to the SDI.';
  if (status === 'DISCARDED') return 'The SDI discarded this invoice, so it has no fiscal existence: correct it and send a new one, then share that.';
  if (!sentToSdi) return `The invoice is ${status} and not yet taken by the SDI: share it once it is SENT (a document.updated event tells you).`;
  return null;
}

/**
 * Share-invoice: e-mails the courtesy copy of an e-invoice (the invoice rendered for a person, its XML attached and a
 * temporary link to it) to the addresses the integrator names. The answer is 202: the message is composed here, in
 * the request, and handed to the worker as a mail delivery in the same transaction as the share row, so an accepted
 * share is sent, retried or visibly failed, never dropped.
 */
@Injectable()
export class SharesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: DeliveriesService,
    private readonly shares: SharesRepository,
    private readonly invoices: InvoicesRepository,
  ) {}

  async share(companyId: string, documentId: string, body: ShareInvoiceDto, baseUrl: string): Promise<InvoiceShareDto> {
    const recipients = checkedRecipients(body.to);
    const document = await this.shares.document(companyId, documentId);
    const loaded = await this.invoices.loadStored(this.db.manager, companyId, document.id);
    if (!loaded) throw ApiError.of('not_found', 'This document is not an e-invoice created through Flusso: it has no invoice to share.');
    const refusal = notShareable(document.status, loaded.stored.sentAt !== null);
    if (refusal) throw ApiError.of('invalid_state', refusal);

    const expires = Math.floor(Date.now() / 1000) + this.config.mail.shareLinkTtlSeconds;
    const copy = courtesyCopy(loaded.invoice, {
      message: body.body,
      link: { url: baseUrl + signInvoiceLink(this.config.invoices.linkKey, document.id, expires), expiresAt: new Date(expires * 1000) },
    });
    const subject = body.subject ?? copy.subject;
    const message: MailMessage = {
      to: recipients,
      replyTo: body.reply_to,
      subject,
      text: copy.text,
      html: copy.html,
      attachments: [
        {
          filename: loaded.document.fileName ?? `${document.id}.xml`,
          content: loaded.xml.toString('base64'),
          encoding: 'base64',
          contentType: 'application/xml',
        },
      ],
    };
    const share = await this.db.transaction(async (manager) => {
      const deliveryId = await this.deliveries.enqueueMail(manager, message);
      return this.shares.insert(manager, { companyId, documentId: document.id, deliveryId, recipients, replyTo: body.reply_to, subject });
    });
    const [presented] = await this.present([share]);
    return presented;
  }

  async list(companyId: string, documentId: string, params: QueryParams): Promise<Page<InvoiceShareDto>> {
    const query = parseListQuery(params, shareList);
    const document = await this.shares.document(companyId, documentId);
    const { rows, cursor } = await this.shares.page(document.id, query);
    return page(await this.present(rows), cursor, query.pageSize);
  }

  async get(companyId: string, documentId: string, id: string): Promise<InvoiceShareDto> {
    const document = await this.shares.document(companyId, documentId);
    const share = await this.shares.findOwned(companyId, id);
    if (share.documentId !== document.id) throw ApiError.notFound('Share');
    const [presented] = await this.present([share]);
    return presented;
  }

  private async present(shares: InvoiceShare[]): Promise<InvoiceShareDto[]> {
    if (shares.length === 0) return [];
    const mails = await this.deliveries.mailStates(shares.map((s) => s.deliveryId));
    return shares.map((share) => {
      const mail = mails.get(share.deliveryId)!;
      return {
        id: share.id,
        document_id: share.documentId,
        to: share.recipients,
        reply_to: share.replyTo,
        subject: share.subject,
        status: mail.status,
        attempts: mail.attempts,
        failure_reason: mail.failure_reason,
        created_at: share.createdAt.toISOString(),
        completed_at: mail.completed_at,
      };
    });
  }
}

/** `to` as a list: each address checked on its own (with its pointer), duplicates dropped, at most MAX_RECIPIENTS. */
function checkedRecipients(to: string | string[]): string[] {
  const list = Array.isArray(to) ? to : [to];
  if (Array.isArray(to) && to.length === 0) throw ApiError.of('unprocessable_entity', 'to must name at least one e-mail address.', '/to');
  if (list.length > MAX_RECIPIENTS) throw ApiError.of('unprocessable_entity', `to may name at most ${MAX_RECIPIENTS} addresses.`, '/to');
  const pointer = (index: number) => (Array.isArray(to) ? `/to/${index}` : '/to');
  // A member that is not a string is a malformed request (400), like any type error; a string that is not an address is 422.
  const malformed = list.flatMap((address, index) =>
    typeof address === 'string' ? [] : [errorItem('bad_request', 'Each recipient must be a string.', pointer(index))],
  );
  if (malformed.length > 0) throw new ApiError(400, malformed);
  const problems = list.flatMap((address, index) =>
    address.length <= 254 && isEmailAddress(address) ? [] : [errorItem('unprocessable_entity', 'Each recipient must be an e-mail address.', pointer(index))],
  );
  if (problems.length > 0) throw new ApiError(422, problems);
  const seen = new Set<string>();
  return list.filter((address) => !seen.has(address.toLowerCase()) && seen.add(address.toLowerCase()));
}
