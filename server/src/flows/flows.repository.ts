import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { byId, findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Flow } from './flow.entity.js';

export const flowList = defineList({
  alias: 'f',
  defaultSort: 'expected_payment_date,created_at',
  internalFields: {
    expected_payment_date: { column: 'f.expectedPaymentDate', type: 'date', nullable: true },
    created_at: { column: 'f.createdAt', type: 'datetime' },
  },
});

/** The snapshots' example of a flow being written. */
const EXAMPLE_NEW_FLOW = {
  companyId: DummyValue.COMPANY_ID,
  documentId: DummyValue.UUID,
  amount: '100.00',
  currency: 'EUR',
  paidAmount: '0',
  paymentStatus: 'TO_PAY',
  paymentMethod: null,
  expectedPaymentDate: DummyValue.DATE,
  paymentDate: null,
} as const;

/** What a flow's reconciliations allocate to it, as stored (flow-coverage.ts judges it). */
export interface Allocated {
  reconciled: boolean;
  paid: string;
  amount: string;
  lastDate: string | null;
}

/** A document's flows against its gross amount, with one flow's amount in place of what it was (or added). */
export interface FlowTotals {
  total: string;
  gross: string;
  left: string;
}

/**
 * The SQL of flows (a document's instalments). Callers that change a flow hold the lock of its document
 * (DocumentsRepository.lock), which serialises every change to its flows.
 */
@Injectable()
export class FlowsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of a document's flows. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID, parseListQuery({}, flowList)] })
  page(companyId: string, documentId: string, query: ListQuery): Promise<{ rows: Flow[]; cursor: string | null }> {
    const base = this.db
      .getRepository(Flow)
      .createQueryBuilder('f')
      .where('f.companyId = :companyId AND f.documentId = :documentId', { companyId, documentId });
    return fetchPage(base, flowList, query);
  }

  /** The company's flow: 404, or 403 when it is another company's (`pointer` names where the request named it). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(manager: EntityManager, companyId: string, id: string, pointer?: string): Promise<Flow> {
    return findOwned(manager.getRepository(Flow), companyId, id, 'Flow', pointer);
  }

  /** The flow as it is now (read again under its document's lock), or null when it was deleted. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  find(manager: EntityManager, companyId: string, id: string): Promise<Flow | null> {
    return manager.getRepository(Flow).findOneBy({ companyId, id });
  }

  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  exists(manager: EntityManager, companyId: string, id: string): Promise<boolean> {
    return manager.getRepository(Flow).existsBy({ companyId, id });
  }

  /** Flows by id in one query, for expansions. */
  @GenerateSql({ params: [DummyValue.MANAGER, [DummyValue.UUID]] })
  byIds(manager: EntityManager, ids: Iterable<string | null>): Promise<Map<string, Flow>> {
    return byId(manager.getRepository(Flow), ids);
  }

  /** Inserts a flow and answers it as stored. */
  @GenerateSql({
    params: [DummyValue.MANAGER, EXAMPLE_NEW_FLOW],
  })
  async insert(manager: EntityManager, flow: Omit<Flow, 'id' | 'createdAt' | 'updatedAt'>): Promise<Flow> {
    const flows = manager.getRepository(Flow);
    const { id } = await flows.save(flows.create(flow));
    return flows.findOneByOrFail({ companyId: flow.companyId, id });
  }

  /** Writes a changed flow. */
  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      {
        ...EXAMPLE_NEW_FLOW,
        id: DummyValue.UUID,
        createdAt: DummyValue.TIMESTAMP,
        updatedAt: DummyValue.TIMESTAMP,
      },
    ],
  })
  async save(manager: EntityManager, flow: Flow): Promise<void> {
    await manager.getRepository(Flow).save(flow);
  }

  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  async delete(manager: EntityManager, companyId: string, id: string): Promise<void> {
    await manager.getRepository(Flow).delete({ companyId, id });
  }

  /**
   * The document's flows with `amount` for the flow being created (`replacing` null) or changed, against the
   * document's gross amount. Amounts are stored without a sign (the database refuses negative ones).
   */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID, '100.00', null] })
  async totals(manager: EntityManager, documentId: string, amount: string, replacing: string | null): Promise<FlowTotals> {
    const [totals]: FlowTotals[] = await manager.query(
      `SELECT (o.others + $3::numeric)::text AS total, d.gross_amount::text AS gross, greatest(d.gross_amount - o.others, 0)::text AS left
         FROM documents d,
              LATERAL (SELECT coalesce(sum(f.amount), 0) AS others FROM flows f WHERE f.document_id = d.id AND f.id IS DISTINCT FROM $2::uuid) o
        WHERE d.id = $1`,
      [documentId, replacing, amount],
    );
    return totals;
  }

  /** What the flow's reconciliations allocate to it, and the date of the latest reconciled transaction. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID] })
  async allocated(manager: EntityManager, flowId: string): Promise<Allocated> {
    const [row] = await manager.query(
      `SELECT count(r.id) > 0 AS reconciled, coalesce(sum(r.amount), 0)::text AS paid, f.amount::text AS amount, max(t.date)::text AS last_date
         FROM flows f
         LEFT JOIN reconciliations r ON r.flow_id = f.id
         LEFT JOIN transactions t ON t.id = r.transaction_id
        WHERE f.id = $1
        GROUP BY f.id, f.amount`,
      [flowId],
    );
    return { reconciled: row.reconciled, paid: row.paid, amount: row.amount, lastDate: row.last_date };
  }

  /** Writes what coverage decides: the paid amount and, when it moves, the status and payment date. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID, { paidAmount: '100.00', paymentStatus: 'PAID', paymentDate: DummyValue.DATE }] })
  async settle(
    manager: EntityManager,
    flowId: string,
    changes: Pick<Flow, 'paidAmount'> & Partial<Pick<Flow, 'paymentStatus' | 'paymentDate'>>,
  ): Promise<void> {
    await manager.update(Flow, { id: flowId }, changes);
  }
}
