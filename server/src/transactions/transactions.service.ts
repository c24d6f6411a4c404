import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Category } from '../categories/category.entity.js';
import { classify } from '../categories/classification.js';
import { byId, findOwned, findOwnedLocked } from '../common/database/find-owned.js';
import { groupBy } from '../common/database/group-by.js';
import { loadAll } from '../common/database/load-all.js';
import { ApiError } from '../common/errors/api-error.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Flow } from '../flows/flow.entity.js';
import { presentFlow } from '../flows/flow.presenter.js';
import { Reconciliation } from '../reconciliations/reconciliation.entity.js';
import { presentReconciliation } from '../reconciliations/reconciliation.presenter.js';
import type { TransactionDto, UpdateTransactionDto } from './transaction.dto.js';
import { Transaction, TRANSACTION_TYPES } from './transaction.entity.js';
import { presentTransaction } from './transaction.presenter.js';

const TRANSACTION_EXPANSIONS = ['category', 'subcategory', 'reconciliations', 'reconciliations.flow'] as const;

export const transactionList = defineList({
  alias: 't',
  filters: {
    account_id: { column: 't.accountId', type: 'uuid' },
    // Amounts carry no sign (type says the direction): filter[amount__gte]=100 finds movements of 100 or more either way.
    amount: { column: 't.amount', type: 'decimal' },
    booking_date_time: { column: 't.bookingDateTime', type: 'datetime', nullable: true },
    clean_description: { column: 't.cleanDescription', type: 'string', nullable: true },
    counterpart_name: { column: 't.counterpartName', type: 'string', nullable: true },
    date: { column: 't.date', type: 'date' },
    description: { column: 't.description', type: 'string', nullable: true },
    type: { column: 't.type', type: 'enum', values: TRANSACTION_TYPES },
  },
  sorts: {
    amount: { column: 't.amount', type: 'decimal' },
    created_at: { column: 't.createdAt', type: 'datetime' },
    date: { column: 't.date', type: 'date' },
  },
  defaultSort: '-date',
  expansions: TRANSACTION_EXPANSIONS,
});

@Injectable()
export class TransactionsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(companyId: string, params: QueryParams): Promise<Page<TransactionDto>> {
    const query = parseListQuery(params, transactionList);
    const base = this.db.getRepository(Transaction).createQueryBuilder('t').where('t.companyId = :companyId', { companyId });
    const { rows, cursor } = await fetchPage(base, transactionList, query);
    return page(await this.present(rows, query.expand), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, expand: Set<string>): Promise<TransactionDto> {
    const transaction = await findOwned(this.db.getRepository(Transaction), companyId, id, 'Transaction');
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
      const transaction = await findOwnedLocked(manager.getRepository(Transaction), companyId, id, 'Transaction', 'for_no_key_update');
      const classification = await classify(manager, companyId, transaction, changes, 'transaction');
      if (classification.categoryId !== transaction.categoryId || classification.subcategoryId !== transaction.subcategoryId) {
        await manager.getRepository(Transaction).update({ companyId: transaction.companyId, id: transaction.id }, classification);
      }
      return { ...transaction, ...classification };
    });
    const [presented] = await this.present([updated], new Set(TRANSACTION_EXPANSIONS));
    return presented;
  }

  /** Loads each requested expansion for the whole page in one query. */
  async present(transactions: Transaction[], expand: ReadonlySet<string>): Promise<TransactionDto[]> {
    const categories = this.db.getRepository(Category);
    const [categoryMap, subcategoryMap, reconciliations] = await loadAll(this.db.manager, [
      async () =>
        expand.has('category')
          ? byId(
              categories,
              transactions.map((t) => t.categoryId),
            )
          : undefined,
      async () =>
        expand.has('subcategory')
          ? byId(
              categories,
              transactions.map((t) => t.subcategoryId),
            )
          : undefined,
      async () => (expand.has('reconciliations') ? this.reconciliationsOf(transactions, expand.has('reconciliations.flow')) : undefined),
    ] as const);
    return transactions.map((t) => presentTransaction(t, { categories: categoryMap, subcategories: subcategoryMap, reconciliations }));
  }

  private async reconciliationsOf(transactions: Transaction[], withFlows: boolean) {
    if (transactions.length === 0) return new Map();
    const rows = await this.db
      .getRepository(Reconciliation)
      .createQueryBuilder('r')
      .where('r.transactionId IN (:...ids)', { ids: transactions.map((t) => t.id) })
      .orderBy('r.createdAt', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .getMany();
    const flows = withFlows
      ? new Map(
          [
            ...(
              await byId(
                this.db.getRepository(Flow),
                rows.map((r) => r.flowId),
              )
            ).values(),
          ].map((f) => [f.id, presentFlow(f)]),
        )
      : undefined;
    const presented = rows.map((r) => ({ transactionId: r.transactionId, dto: presentReconciliation(r, flows) }));
    return new Map([...groupBy(presented, (p) => p.transactionId)].map(([transactionId, group]) => [transactionId, group.map((p) => p.dto)]));
  }
}
