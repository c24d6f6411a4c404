import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CategoriesRepository } from '../categories/categories.repository.js';
import { classify } from '../categories/classification.js';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import type { TransactionDto, UpdateTransactionDto } from './transaction.dto.js';
import type { Transaction } from './transaction.entity.js';
import { presentTransactions } from './transaction.presenter.js';
import { TRANSACTION_EXPANSIONS, transactionList, TransactionsRepository } from './transactions.repository.js';

@Injectable()
export class TransactionsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: TransactionsRepository,
    private readonly categories: CategoriesRepository,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<TransactionDto>> {
    const query = parseListQuery(params, transactionList);
    const { rows, cursor } = await this.repository.page(companyId, query);
    return page(await this.present(rows, query.expand), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, expand: Set<string>): Promise<TransactionDto> {
    const transaction = await this.repository.findOwned(this.db.manager, companyId, id);
    const [presented] = await this.present([transaction], expand);
    return presented;
  }

  /**
   * Changes the transaction's category and subcategory, by the rules documents follow (categories/classification.ts).
   * Answers with every expansion. Transactions have no events: nothing is announced.
   */
  async update(companyId: string, id: string, changes: UpdateTransactionDto): Promise<TransactionDto> {
    if (changes.category_id === undefined && changes.subcategory_id === undefined) {
      throw ApiError.of('bad_request', 'The body names no member to update; send category_id or subcategory_id.', '');
    }
    const updated = await this.db.transaction(async (manager) => {
      // Read under the row lock, so that the current subcategory the rules judge is the one stored.
      const transaction = await this.repository.lockOwned(manager, companyId, id);
      const classification = await classify(this.categories, manager, companyId, transaction, changes, 'transaction');
      if (classification.categoryId !== transaction.categoryId || classification.subcategoryId !== transaction.subcategoryId) {
        await this.repository.classify(manager, transaction, classification);
      }
      return { ...transaction, ...classification };
    });
    const [presented] = await this.present([updated], new Set(TRANSACTION_EXPANSIONS));
    return presented;
  }

  /** Transactions as answered: their expansions loaded for the whole page (on the pool), then presented. */
  async present(transactions: Transaction[], expand: ReadonlySet<string>): Promise<TransactionDto[]> {
    return presentTransactions(transactions, await this.repository.relations(this.db.manager, transactions, expand));
  }
}
