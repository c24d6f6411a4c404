import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import type { Direction, DocumentType } from '../documents/document.enums.js';
import { Reconciliation } from '../transactions/reconciliation.entity.js';

export const RECONCILIATION_EXPANSIONS = ['flow', 'transaction'] as const;

export const reconciliationList = defineList({
  alias: 'r',
  filters: {
    transaction_id: { column: 'r.transactionId', type: 'uuid' },
    flow_id: { column: 'r.flowId', type: 'uuid' },
    created_at: { column: 'r.createdAt', type: 'datetime' },
  },
  sorts: { created_at: { column: 'r.createdAt', type: 'datetime' } },
  defaultSort: '-created_at',
  expansions: RECONCILIATION_EXPANSIONS,
});

/** What remains to allocate of a transaction and of a flow. */
export interface Remaining {
  transaction: string;
  flow: string;
}

/** The rows reconciliation-invariants.ts judges, for one company. */
export interface AllocationRows {
  transactions: Array<{ id: string; amount: string; allocated: string }>;
  links: Array<{
    id: string;
    amount: string;
    currency: string;
    flow_currency: string;
    transaction_currency: string;
    type: string;
    direction: Direction;
    document_type: DocumentType;
  }>;
  flows: Array<{ id: string; amount: string; paid_amount: string; allocated: string; links: number; payment_status: string }>;
  documents: Array<{ id: string; version: number; events: Array<{ version: number; updated_at: string; created_at: string }> }>;
}

/** The SQL of reconciliations: the links between flows and the bank transactions that pay them. */
@Injectable()
export class ReconciliationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the company's reconciliations. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, reconciliationList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: Reconciliation[]; cursor: string | null }> {
    const base = this.db.getRepository(Reconciliation).createQueryBuilder('r').where('r.companyId = :companyId', { companyId });
    return fetchPage(base, reconciliationList, query);
  }

  /** The company's reconciliation: 404, or 403 when it is another company's. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(manager: EntityManager, companyId: string, id: string): Promise<Reconciliation> {
    return findOwned(manager.getRepository(Reconciliation), companyId, id, 'Reconciliation');
  }

  /** Whether the flow and the transaction are already linked. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID, DummyValue.UUID] })
  linked(manager: EntityManager, flowId: string, transactionId: string): Promise<boolean> {
    return manager.getRepository(Reconciliation).existsBy({ flowId, transactionId });
  }

  /** What the transaction's and the flow's other reconciliations leave to allocate. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID, DummyValue.UUID] })
  async remaining(manager: EntityManager, transactionId: string, flowId: string): Promise<Remaining> {
    const [left]: Remaining[] = await manager.query(
      `SELECT (t.amount - coalesce((SELECT sum(r.amount) FROM reconciliations r WHERE r.transaction_id = t.id), 0))::text AS transaction,
              (f.amount - coalesce((SELECT sum(r.amount) FROM reconciliations r WHERE r.flow_id = f.id), 0))::text AS flow
         FROM transactions t, flows f
        WHERE t.id = $1 AND f.id = $2`,
      [transactionId, flowId],
    );
    return left;
  }

  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      { companyId: DummyValue.COMPANY_ID, flowId: DummyValue.UUID, transactionId: DummyValue.UUID, amount: '100.00', currency: 'EUR' },
    ],
  })
  async insert(manager: EntityManager, link: Pick<Reconciliation, 'companyId' | 'flowId' | 'transactionId' | 'amount' | 'currency'>): Promise<Reconciliation> {
    const reconciliations = manager.getRepository(Reconciliation);
    return reconciliations.save(reconciliations.create(link));
  }

  /** Deletes the reconciliation; false when a concurrent request deleted it first. */
  @GenerateSql({ params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID }] })
  async delete(manager: EntityManager, reconciliation: Reconciliation): Promise<boolean> {
    const { affected } = await manager.getRepository(Reconciliation).delete({ companyId: reconciliation.companyId, id: reconciliation.id });
    return Boolean(affected);
  }

  /**
   * The pairs of a new transaction and an open flow of the e-invoice whose `reconciliation_identifier` the
   * transaction's description carries (without regard to case), in order of the transaction's date, then the flow's
   * due date.
   */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, [DummyValue.UUID]] })
  identifiedPairs(manager: EntityManager, companyId: string, transactionIds: readonly string[]): Promise<Array<{ transaction_id: string; flow_id: string }>> {
    return manager.query(
      `SELECT t.id AS transaction_id, f.id AS flow_id
         FROM transactions t
         JOIN invoices i ON i.company_id = t.company_id AND i.reconciliation_identifier IS NOT NULL
                        AND strpos(upper(t.description), upper(i.reconciliation_identifier)) > 0
         JOIN flows f ON f.document_id = i.document_id AND f.payment_status = 'TO_PAY'
        WHERE t.company_id = $1 AND t.id = ANY($2::uuid[])
        ORDER BY t.date, t.id, f.expected_payment_date NULLS LAST, f.created_at, f.id`,
      [companyId, transactionIds],
    );
  }

  /** What the company's transactions, reconciliations, flows and documents' events hold, for the invariants. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID] })
  async allocationRows(manager: EntityManager, companyId: string): Promise<AllocationRows> {
    const transactions = await manager.query(
      `SELECT t.id, t.amount::text AS amount, sum(r.amount)::text AS allocated
         FROM transactions t JOIN reconciliations r ON r.transaction_id = t.id
        WHERE t.company_id = $1 GROUP BY t.id`,
      [companyId],
    );
    const links = await manager.query(
      `SELECT r.id, r.amount::text AS amount, r.currency, f.currency AS flow_currency, t.currency AS transaction_currency, t.type, d.direction, d.type AS document_type
           FROM reconciliations r JOIN flows f ON f.id = r.flow_id JOIN transactions t ON t.id = r.transaction_id JOIN documents d ON d.id = f.document_id
          WHERE r.company_id = $1`,
      [companyId],
    );
    const flows = await manager.query(
      `SELECT f.id, f.amount::text AS amount, f.paid_amount::text AS paid_amount, coalesce(sum(r.amount), 0)::text AS allocated, count(r.id)::int AS links,
              f.payment_status
         FROM flows f LEFT JOIN reconciliations r ON r.flow_id = f.id
        WHERE f.company_id = $1 GROUP BY f.id`,
      [companyId],
    );
    const documents = await manager.query(
      `SELECT d.id, d.version,
              coalesce(json_agg(json_build_object('version', (e.payload->>'version')::int, 'updated_at', e.payload->>'updated_at', 'created_at', e.created_at)
                                ORDER BY e.created_at, e.id) FILTER (WHERE e.id IS NOT NULL), '[]') AS events
         FROM documents d
         LEFT JOIN events e ON e.company_id = d.company_id AND e.type = 'document.updated' AND e.payload->>'id' = d.id::text
        WHERE d.company_id = $1 GROUP BY d.id`,
      [companyId],
    );
    return { transactions, links, flows, documents };
  }
}
