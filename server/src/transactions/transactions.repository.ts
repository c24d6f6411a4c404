import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Category } from '../categories/category.entity.js';
import type { Classification } from '../categories/classification.js';
import { insertRows } from '../common/database/bulk-insert.js';
import { byId, findOwned, findOwnedLocked } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { loadAll } from '../common/database/load-all.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Flow } from '../flows/flow.entity.js';
import { Reconciliation } from './reconciliation.entity.js';
import { Transaction, TRANSACTION_TYPES } from './transaction.entity.js';

export const TRANSACTION_EXPANSIONS = ['category', 'subcategory', 'reconciliations', 'reconciliations.flow'] as const;

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

/** Rows per INSERT of a statement's transactions: large statements, well under PostgreSQL's limits. */
const CHUNK = 5_000;

/** The columns a bank statement's transactions are written with. */
const COLUMNS = {
  id: 'uuid',
  company_id: 'uuid',
  account_id: 'uuid',
  type: 'text',
  amount: 'numeric',
  currency: 'text',
  date: 'date',
  value_date: 'date',
  booking_date_time: 'timestamptz',
  description: 'text',
  clean_description: 'text',
  counterpart_name: 'text',
} as const;

/** A transaction of a statement, as written: one value per column. */
export type NewTransactionRow = { [column in keyof typeof COLUMNS]: unknown };

/** The rows the expansions of transactions show; undefined for an expansion not asked for. */
export interface TransactionRelations {
  categories?: Map<string, Category>;
  subcategories?: Map<string, Category>;
  /** Each transaction's reconciliations, oldest first. */
  reconciliations?: Reconciliation[];
  /** The flows they link, when `reconciliations.flow` is asked for. */
  flows?: Map<string, Flow>;
}

/** The SQL of bank transactions: pages, reads that tell 404 from 403, row locks, classification, and expansions' rows. */
@Injectable()
export class TransactionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the company's transactions. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, transactionList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: Transaction[]; cursor: string | null }> {
    const base = this.db.getRepository(Transaction).createQueryBuilder('t').where('t.companyId = :companyId', { companyId });
    return fetchPage(base, transactionList, query);
  }

  /** The company's transaction: 404, or 403 when it is another company's (`pointer` names where the request named it). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(manager: EntityManager, companyId: string, id: string, pointer?: string): Promise<Transaction> {
    return findOwned(manager.getRepository(Transaction), companyId, id, 'Transaction', pointer);
  }

  /** findOwned under the row lock a classification takes, so that the current subcategory judged is the one stored. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  lockOwned(manager: EntityManager, companyId: string, id: string): Promise<Transaction> {
    return findOwnedLocked(manager.getRepository(Transaction), companyId, id, 'Transaction', 'for_no_key_update');
  }

  /** Writes a statement's transactions in the caller's transaction, and answers them as stored, in the order given. */
  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      [
        {
          id: DummyValue.UUID,
          company_id: DummyValue.COMPANY_ID,
          account_id: DummyValue.UUID,
          type: 'CREDIT',
          amount: '100.00',
          currency: 'EUR',
          date: DummyValue.DATE,
          value_date: null,
          booking_date_time: null,
          description: DummyValue.STRING,
          clean_description: null,
          counterpart_name: null,
        },
      ],
    ],
  })
  async insertMany(manager: EntityManager, rows: readonly NewTransactionRow[]): Promise<Transaction[]> {
    const stored: Transaction[] = [];
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK);
      await insertRows(manager, 'transactions', COLUMNS, chunk);
      stored.push(
        ...(await this.inOrder(
          manager,
          chunk.map((row) => row.id as string),
        )),
      );
    }
    return stored;
  }

  /** Locks the transaction against other reconciliations, with flows of any document, that share its amount. */
  @GenerateSql({
    params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID, categoryId: DummyValue.UUID, subcategoryId: DummyValue.UUID }],
  })
  async lockForAllocation(manager: EntityManager, transaction: Transaction): Promise<void> {
    await manager.query('SELECT 1 FROM transactions WHERE company_id = $1 AND id = $2 FOR UPDATE', [transaction.companyId, transaction.id]);
  }

  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID, categoryId: DummyValue.UUID, subcategoryId: DummyValue.UUID },
      { categoryId: null, subcategoryId: null },
    ],
  })
  async classify(manager: EntityManager, transaction: Transaction, classification: Classification): Promise<void> {
    await manager.getRepository(Transaction).update({ companyId: transaction.companyId, id: transaction.id }, classification);
  }

  /** Transactions by id in one query, in the order of `ids`. */
  @GenerateSql({ params: [DummyValue.MANAGER, [DummyValue.UUID]] })
  async inOrder(manager: EntityManager, ids: readonly string[]): Promise<Transaction[]> {
    // One array parameter, however many ids (an import reads its rows back 5,000 at a time).
    const rows = await manager
      .getRepository(Transaction)
      .createQueryBuilder('t')
      .where('t.id = ANY(:ids)', { ids: [...ids] })
      .getMany();
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => found.get(id)!);
  }

  /** Transactions by id in one query, for expansions. */
  @GenerateSql({ params: [DummyValue.MANAGER, [DummyValue.UUID]] })
  byIds(manager: EntityManager, ids: Iterable<string | null>): Promise<Map<string, Transaction>> {
    return byId(manager.getRepository(Transaction), ids);
  }

  /** The rows the requested expansions show, each loaded in one query for the whole page. */
  // One example per expansion: loaded side by side, their statements would reach the snapshot in any order.
  @GenerateSql(
    ...['category', 'subcategory', 'reconciliations.flow'].map((expansion) => ({
      name: expansion,
      params: [
        DummyValue.MANAGER,
        [{ companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID, categoryId: DummyValue.UUID, subcategoryId: DummyValue.UUID }],
        new Set(expansion === 'reconciliations.flow' ? ['reconciliations', expansion] : [expansion]),
      ],
    })),
  )
  async relations(manager: EntityManager, transactions: Transaction[], expand: ReadonlySet<string>): Promise<TransactionRelations> {
    const categories = manager.getRepository(Category);
    const [categoryMap, subcategoryMap, linked] = await loadAll(manager, [
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
      async () => (expand.has('reconciliations') ? this.reconciliationsOf(manager, transactions, expand.has('reconciliations.flow')) : undefined),
    ] as const);
    return { categories: categoryMap, subcategories: subcategoryMap, reconciliations: linked?.reconciliations, flows: linked?.flows };
  }

  /** The transactions' reconciliations, oldest first, then (when asked) the flows they link. */
  private async reconciliationsOf(
    manager: EntityManager,
    transactions: Transaction[],
    withFlows: boolean,
  ): Promise<{ reconciliations: Reconciliation[]; flows?: Map<string, Flow> }> {
    if (transactions.length === 0) return { reconciliations: [], flows: withFlows ? new Map() : undefined };
    const reconciliations = await manager
      .getRepository(Reconciliation)
      .createQueryBuilder('r')
      .where('r.transactionId IN (:...ids)', { ids: transactions.map((t) => t.id) })
      .orderBy('r.createdAt', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .getMany();
    const flows = withFlows
      ? await byId(
          manager.getRepository(Flow),
          reconciliations.map((r) => r.flowId),
        )
      : undefined;
    return { reconciliations, flows };
  }
}
