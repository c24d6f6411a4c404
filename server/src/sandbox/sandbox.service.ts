import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { ApiError } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { DocumentDto } from '../documents/document.dto.js';
import { DocumentsRepository } from '../documents/documents.repository.js';
import { DocumentsService } from '../documents/documents.service.js';
import { insertTransactions } from '../imports/transactions-import.js';
import { XmlPool } from '../invoices/fatturapa/index.js';
import { readerAnswer } from '../invoices/invoice-reader.js';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import type { SdiNotice } from '../invoices/sdi/sdi-notices.js';
import { SdiNotifications } from '../invoices/sdi/sdi-notifications.js';
import { sandboxOutcomeOf } from '../invoices/sdi/drivers/sandbox.driver.js';
import type { TransactionDto } from '../transactions/transaction.dto.js';
import { TransactionsRepository } from '../transactions/transactions.repository.js';
import { TransactionsService } from '../transactions/transactions.service.js';
import type { CreateSandboxTransactionsDto } from './sandbox.dto.js';
import { SandboxRepository } from './sandbox.repository.js';

/** An account without a currency of its own takes movements in euro, the currency of Italian e-invoices. */
const DEFAULT_CURRENCY = 'EUR';

/**
 * The development environment's helpers: what a bank or the SDI would bring in production, on demand. Each goes
 * through the path the real thing takes (the import's insert and reconciliation, the received invoice's ingest).
 */
@Injectable()
export class SandboxService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: SandboxRepository,
    private readonly accounts: AccountsRepository,
    private readonly transactionRows: TransactionsRepository,
    private readonly transactions: TransactionsService,
    private readonly documentRows: DocumentsRepository,
    private readonly documents: DocumentsService,
    private readonly invoices: InvoicesRepository,
    private readonly notifications: SdiNotifications,
    private readonly xml: XmlPool,
  ) {}

  /** Creates the movements on one of the company's accounts as an import would, and answers them reconciled. */
  async createTransactions(companyId: string, body: CreateSandboxTransactionsDto): Promise<TransactionDto[]> {
    const account = await this.accounts.findOwned(this.db.manager, companyId, body.account_id, '/account_id');
    const currency = account.currency?.trim() || DEFAULT_CURRENCY;
    const { ids } = await insertTransactions(
      this.db,
      account,
      body.transactions.map((t) => {
        const debit = t.amount.startsWith('-');
        return {
          type: debit ? 'DEBIT' : 'CREDIT',
          amount: debit ? t.amount.slice(1) : t.amount,
          currency,
          date: t.date,
          value_date: t.date,
          booking_date_time: null,
          description: t.description,
          clean_description: null,
          counterpart_name: t.counterpart_name ?? null,
        };
      }),
    );
    return this.transactions.present(await this.transactionRows.inOrder(this.db.manager, ids), new Set(['reconciliations', 'reconciliations.flow']));
  }

  /**
   * Sends at once what the SDI sandbox still owes an issued e-invoice (its transmission when still CREATED, then every
   * notice of its outcome), instead of after SDI_SANDBOX_DELAYS, and answers the document. The owed rows are claimed
   * first: the worker's job for a claimed notice finds no row and sends nothing, and a notice both apply is applied once
   * (SdiNotifications). Nothing owed (already final, or received): the document as it is.
   */
  async deliverSdiNotices(companyId: string, documentId: string): Promise<DocumentDto> {
    if (this.config.invoices.sdiChannel !== 'sandbox') {
      throw ApiError.of('not_found', 'This environment sends e-invoices to the real SDI (SDI_CHANNEL): there is no sandbox to hurry.');
    }
    const document = await this.documentRows.findOwned(this.db.manager, companyId, documentId);
    const file = await this.invoices.hasFile(document.id);
    if (!file || document.status === 'DRAFT') {
      throw ApiError.of(
        'invalid_state',
        `The document is ${file ? 'a DRAFT: issue it first' : 'not an e-invoice created through Flusso'}; the SDI answers issued e-invoices only.`,
      );
    }
    // The file is judged before the owed notices are taken: when the XML pool cannot answer (503), they stay owed.
    const judged = await readerAnswer(sandboxOutcomeOf(this.db, this.xml, document.id));
    const owed = await this.repository.claimOwedNotices(document.id);
    const transmitting = document.status === 'CREATED';
    const outcome = transmitting || owed.length ? judged : null;
    if (outcome) {
      const notices: SdiNotice[] = transmitting ? [{ kind: 'sent' }, ...outcome] : outcome.slice(Math.min(...owed));
      for (const notice of notices) {
        if ((await this.notifications.apply(document.id, notice)) === 'refused') break;
      }
    }
    return this.documents.get(companyId, document.id, new Set(['flows']));
  }
}
