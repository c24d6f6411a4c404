import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { byId, findOwned } from '../common/database/find-owned.js';
import { loadAll } from '../common/database/load-all.js';
import { ApiError } from '../common/errors/api-error.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseExpand, parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { DocumentsService } from '../documents/documents.service.js';
import { coverageOf, lockFlow, settleCoverage } from '../flows/flow-coverage.js';
import { Flow } from '../flows/flow.entity.js';
import { presentFlow } from '../flows/flow.presenter.js';
import { Transaction } from '../transactions/transaction.entity.js';
import { presentTransaction } from '../transactions/transaction.presenter.js';
import type { CreateReconciliationDto, ReconciliationDto } from './reconciliation.dto.js';
import { Reconciliation } from './reconciliation.entity.js';
import { presentReconciliation } from './reconciliation.presenter.js';

const RECONCILIATION_EXPANSIONS = ['flow', 'transaction'] as const;

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

/**
 * Reconciliations link a flow to the bank transaction that pays it. Rules: both belong to the company and share a
 * currency; a pair is linked once; a transaction pays flows only up to its amount (one transfer can settle several
 * invoices, but not more than it carried). Status changes follow coverage (flows/flow-coverage.ts).
 */
@Injectable()
export class ReconciliationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly documents: DocumentsService,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<ReconciliationDto>> {
    const query = parseListQuery(params, reconciliationList);
    const base = this.db.getRepository(Reconciliation).createQueryBuilder('r').where('r.companyId = :companyId', { companyId });
    const { rows, cursor } = await fetchPage(base, reconciliationList, query);
    return page(await this.present(this.db.manager, rows, query.expand), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<ReconciliationDto> {
    rejectUnknownParams(params, ['expand']);
    const expand = parseExpand(params, RECONCILIATION_EXPANSIONS);
    const reconciliation = await findOwned(this.db.getRepository(Reconciliation), companyId, id, 'Reconciliation');
    const [presented] = await this.present(this.db.manager, [reconciliation], expand);
    return presented;
  }

  async create(companyId: string, body: CreateReconciliationDto): Promise<ReconciliationDto> {
    return this.db.transaction(async (manager) => {
      const flow = await findOwned(manager.getRepository(Flow), companyId, body.flow_id, 'Flow', '/flow_id');
      const transaction = await findOwned(manager.getRepository(Transaction), companyId, body.transaction_id, 'Transaction', '/transaction_id');
      await lockFlow(manager, flow.id);
      // Serializes reconciliations of the same transaction, whose amount they share.
      await manager.query('SELECT 1 FROM transactions WHERE id = $1 FOR UPDATE', [transaction.id]);
      if (flow.currency.trim() !== transaction.currency.trim()) {
        throw ApiError.of(
          'currency_mismatch',
          `The flow is in ${flow.currency} and the transaction in ${transaction.currency}; a reconciliation links the same currency.`,
          '/transaction_id',
        );
      }
      const reconciliations = manager.getRepository(Reconciliation);
      if (await reconciliations.existsBy({ flowId: flow.id, transactionId: transaction.id })) {
        throw ApiError.of('reconciliation_exists', 'This flow and this transaction are already reconciled.', '/transaction_id');
      }
      const [{ spent }] = await manager.query(
        `SELECT coalesce(sum(f.amount), 0) >= t.amount AS spent
           FROM transactions t
           LEFT JOIN reconciliations r ON r.transaction_id = t.id
           LEFT JOIN flows f ON f.id = r.flow_id
          WHERE t.id = $1
          GROUP BY t.id, t.amount`,
        [transaction.id],
      );
      if (spent) {
        throw ApiError.of(
          'transaction_fully_reconciled',
          'The flows already reconciled with this transaction use all of its amount.',
          '/transaction_id',
        );
      }
      const before = await coverageOf(manager, flow.id);
      const saved = await reconciliations.save(reconciliations.create({ companyId: flow.companyId, flowId: flow.id, transactionId: transaction.id }));
      await settleCoverage(manager, flow.id, before);
      await this.documents.recordUpdated(manager, flow.companyId, flow.documentId);
      const [presented] = await this.present(manager, [saved], new Set(RECONCILIATION_EXPANSIONS));
      return presented;
    });
  }

  async delete(companyId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const reconciliation = await findOwned(manager.getRepository(Reconciliation), companyId, id, 'Reconciliation');
      await lockFlow(manager, reconciliation.flowId);
      const before = await coverageOf(manager, reconciliation.flowId);
      await manager.getRepository(Reconciliation).delete({ id: reconciliation.id });
      await settleCoverage(manager, reconciliation.flowId, before);
      const flow = await manager.getRepository(Flow).findOneByOrFail({ id: reconciliation.flowId });
      await this.documents.recordUpdated(manager, flow.companyId, flow.documentId);
    });
  }

  private async present(manager: EntityManager, rows: Reconciliation[], expand: ReadonlySet<string>): Promise<ReconciliationDto[]> {
    const [flows, transactions] = await loadAll(manager, [
      async () => (expand.has('flow') ? byId(manager.getRepository(Flow), rows.map((r) => r.flowId)) : undefined),
      async () => (expand.has('transaction') ? byId(manager.getRepository(Transaction), rows.map((r) => r.transactionId)) : undefined),
    ] as const);
    const flowDtos = flows && new Map([...flows].map(([id, f]) => [id, presentFlow(f)]));
    const transactionDtos = transactions && new Map([...transactions].map(([id, t]) => [id, presentTransaction(t)]));
    return rows.map((r) => presentReconciliation(r, flowDtos, transactionDtos));
  }
}
