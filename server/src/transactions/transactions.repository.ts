import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Category } from '../categories/category.entity.js';
import type { EventType } from '../common/events/events.service.js';
import { API_VERSION } from '../config/api-version.js';
import type { Classification } from '../categories/classification.js';
import { unnestRows } from '../common/database/bulk-insert.js';
import { byId, findOwned, findOwnedLocked } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { loadAll } from '../common/database/load-all.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Flow } from '../flows/flow.entity.js';
import { Reconciliation } from './reconciliation.entity.js';
import type { TransactionDto } from './transaction.dto.js';
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

/** An instant as Date.toISOString writes it, for to_char. */
const ISO_INSTANT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * A new transaction as GET /transactions/{id} answers it (presentTransaction, with no category and no reconciliation
 * yet), in SQL over the inserted row `t`: the data of its `transaction.created` event. Typed by the DTO, so that a
 * member added to it cannot be missed here; events.spec compares the event with GET's answer.
 */
const CREATED_DATA: { [member in keyof TransactionDto]-?: string } = {
  id: 't.id',
  account_id: 't.account_id',
  type: 't.type',
  amount: `jsonb_build_object('amount', t.amount::text, 'currency', btrim(t.currency))`,
  booking_date_time: `to_char(t.booking_date_time AT TIME ZONE 'UTC', ${ISO_INSTANT})`,
  date: `to_char(t.date, 'YYYY-MM-DD')`,
  value_date: `to_char(t.value_date, 'YYYY-MM-DD')`,
  description: 't.description',
  clean_description: 't.clean_description',
  counterpart_name: 't.counterpart_name',
  created_at: `to_char(t.created_at AT TIME ZONE 'UTC', ${ISO_INSTANT})`,
  category_id: 't.category_id',
  category: 'NULL::jsonb',
  subcategory_id: 't.subcategory_id',
  subcategory: 'NULL::jsonb',
  reconciliations: `'[]'::jsonb`,
};

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

  /**
   * Writes a statement's transactions in the caller's transaction, in the order given, each with its
   * `transaction.created` event: one statement per chunk, the events' data built from the inserted rows (CREATED_DATA),
   * so nothing is read back or sent twice.
   */
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
  async insertWithEvents(manager: EntityManager, rows: readonly NewTransactionRow[]): Promise<void> {
    const type: EventType = 'transaction.created';
    const data = Object.entries(CREATED_DATA).flatMap(([member, sql]) => [`'${member}'`, sql]);
    for (let start = 0; start < rows.length; start += CHUNK) {
      const { names, unnest, parameters } = unnestRows(COLUMNS, rows.slice(start, start + CHUNK));
      const next = parameters.length + 1;
      await manager.query(
        `WITH input AS (SELECT * FROM ${unnest} WITH ORDINALITY AS i(${names}, n)),
              t AS (INSERT INTO transactions (${names}) SELECT ${names} FROM input ORDER BY n RETURNING *)
         INSERT INTO events (company_id, type, payload, created_at, api_version)
         SELECT t.company_id, $${next}, jsonb_build_object(${data.join(', ')}), t.created_at, $${next + 1}
           FROM t JOIN input ON input.id = t.id
          ORDER BY input.n`,
        [...parameters, type, API_VERSION],
      );
    }
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
    // One array parameter, however many ids.
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
