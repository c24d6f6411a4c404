import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import { findOwned } from '../common/database/find-owned.js';
import { insertTransactions } from '../imports/transactions-import.js';
import type { TransactionDto } from '../transactions/transaction.dto.js';
import { Transaction } from '../transactions/transaction.entity.js';
import { TransactionsService } from '../transactions/transactions.service.js';
import type { CreateSandboxTransactionsDto } from './sandbox.dto.js';

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
    private readonly transactions: TransactionsService,
  ) {}

  /** Creates the movements on one of the company's accounts as an import would, and answers them reconciled. */
  async createTransactions(companyId: string, body: CreateSandboxTransactionsDto): Promise<TransactionDto[]> {
    const account = await findOwned(this.db.getRepository(Account), companyId, body.account_id, 'Account', '/account_id');
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
    const rows = await this.db.getRepository(Transaction).findBy({ id: In(ids) });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return this.transactions.present(
      ids.map((id) => byId.get(id)!),
      new Set(['reconciliations', 'reconciliations.flow']),
    );
  }
}
