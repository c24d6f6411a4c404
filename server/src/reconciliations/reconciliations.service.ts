import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { byId, findOwned } from '../common/database/find-owned.js';
import { loadAll } from '../common/database/load-all.js';
import { ApiError } from '../common/errors/api-error.js';
import { compareAmounts } from '../common/money/money.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { flowsComeIn } from '../documents/document.enums.js';
import { DocumentsService } from '../documents/documents.service.js';
import { coverageOf, settleCoverage } from '../flows/flow-coverage.js';
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
 * Reconciliations link a flow to the bank transaction that pays it, and allocate part of the transaction to the flow.
 * Rules: both belong to the company and share a currency; the transaction goes the flow's way (money in for an issued
 * document, out for a received one, the reverse for credit notes); a pair is linked once; the amount allocated is the
 * one given, else what remains of the transaction or of the flow, whichever is less, and never more than either: a
 * transaction pays at most its amount across all its flows, a flow is paid at most its amount. Status changes follow
 * coverage (flows/flow-coverage.ts).
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

  async get(companyId: string, id: string, expand: Set<string>): Promise<ReconciliationDto> {
    const reconciliation = await findOwned(this.db.getRepository(Reconciliation), companyId, id, 'Reconciliation');
    const [presented] = await this.present(this.db.manager, [reconciliation], expand);
    return presented;
  }

  async create(companyId: string, body: CreateReconciliationDto): Promise<ReconciliationDto> {
    if (body.amount && compareAmounts(body.amount.amount, '0') <= 0) {
      throw ApiError.of('unprocessable_entity', 'amount must be greater than zero.', '/amount/amount');
    }
    return this.db.transaction(async (manager) => {
      const flow = await findOwned(manager.getRepository(Flow), companyId, body.flow_id, 'Flow', '/flow_id');
      const transaction = await findOwned(manager.getRepository(Transaction), companyId, body.transaction_id, 'Transaction', '/transaction_id');
      const gone = () => ApiError.notFound('Flow', '/flow_id');
      const document = await this.documents.lock(manager, flow.companyId, flow.documentId, gone);
      // The flow (or its document) may have been deleted while this request waited for the lock.
      if (!(await manager.getRepository(Flow).existsBy({ companyId: flow.companyId, id: flow.id }))) throw gone();
      // Serializes reconciliations of the same transaction (with flows of any document), whose amount they share.
      await manager.query('SELECT 1 FROM transactions WHERE company_id = $1 AND id = $2 FOR UPDATE', [transaction.companyId, transaction.id]);
      const currency = transaction.currency.trim();
      if (flow.currency.trim() !== currency) {
        throw ApiError.of(
          'currency_mismatch',
          `The flow is in ${flow.currency} and the transaction in ${transaction.currency}; a reconciliation links the same currency.`,
          '/transaction_id',
        );
      }
      const expected = flowsComeIn(document) ? 'CREDIT' : 'DEBIT';
      if (transaction.type !== expected) {
        throw ApiError.of(
          'direction_mismatch',
          `This flow is money ${expected === 'CREDIT' ? 'in' : 'out'} (${document.direction} ${document.type}) and the transaction a ${transaction.type}; it can be paid only by a ${expected} transaction.`,
          '/transaction_id',
        );
      }
      if (body.amount && body.amount.currency !== currency) {
        throw ApiError.of(
          'currency_mismatch',
          `The amount must be in the transaction's currency (${currency}), got ${body.amount.currency}.`,
          '/amount/currency',
        );
      }
      const reconciliations = manager.getRepository(Reconciliation);
      if (await reconciliations.existsBy({ flowId: flow.id, transactionId: transaction.id })) {
        throw ApiError.of('reconciliation_exists', 'This flow and this transaction are already reconciled.', '/transaction_id');
      }
      const amount = await this.allocation(manager, flow, transaction, body.amount?.amount);
      const before = await coverageOf(manager, flow.id);
      const saved = await reconciliations.save(
        reconciliations.create({ companyId: flow.companyId, flowId: flow.id, transactionId: transaction.id, amount, currency }),
      );
      await settleCoverage(manager, flow.id, before);
      await this.documents.recordUpdated(manager, document);
      const [presented] = await this.present(manager, [saved], new Set(RECONCILIATION_EXPANSIONS));
      return presented;
    });
  }

  /** The amount a new link allocates: the one asked for, else the lesser of what remains of either side. */
  private async allocation(manager: EntityManager, flow: Flow, transaction: Transaction, asked: string | undefined): Promise<string> {
    const [left] = await manager.query(
      `SELECT (t.amount - coalesce((SELECT sum(r.amount) FROM reconciliations r WHERE r.transaction_id = t.id), 0))::text AS transaction,
              (f.amount - coalesce((SELECT sum(r.amount) FROM reconciliations r WHERE r.flow_id = f.id), 0))::text AS flow
         FROM transactions t, flows f
        WHERE t.id = $1 AND f.id = $2`,
      [transaction.id, flow.id],
    );
    const currency = transaction.currency.trim();
    if (compareAmounts(left.transaction, '0') <= 0) {
      throw ApiError.of('transaction_fully_reconciled', 'The flows already reconciled with this transaction use all of its amount.', '/transaction_id');
    }
    if (compareAmounts(left.flow, '0') <= 0) {
      throw ApiError.of('flow_fully_reconciled', 'The transactions already reconciled with this flow pay all of its amount.', '/flow_id');
    }
    if (asked === undefined) return compareAmounts(left.transaction, left.flow) <= 0 ? left.transaction : left.flow;
    if (compareAmounts(asked, left.transaction) > 0) {
      throw ApiError.of('amount_exceeds_remaining', `Only ${left.transaction} ${currency} of this transaction is not reconciled yet.`, '/amount/amount');
    }
    if (compareAmounts(asked, left.flow) > 0) {
      throw ApiError.of('amount_exceeds_remaining', `Only ${left.flow} ${currency} of this flow remains to be paid.`, '/amount/amount');
    }
    return asked;
  }

  /** Deletes a reconciliation; when a concurrent request deleted it first, this one changed nothing: 404, no event. */
  async delete(companyId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const reconciliation = await findOwned(manager.getRepository(Reconciliation), companyId, id, 'Reconciliation');
      const gone = () => ApiError.notFound('Reconciliation');
      // A concurrent deletion of its flow or document deletes the reconciliation with it.
      const flow = await manager.getRepository(Flow).findOneBy({ companyId: reconciliation.companyId, id: reconciliation.flowId });
      if (!flow) throw gone();
      const document = await this.documents.lock(manager, flow.companyId, flow.documentId, gone);
      const before = await coverageOf(manager, flow.id);
      const { affected } = await manager.getRepository(Reconciliation).delete({ companyId: reconciliation.companyId, id: reconciliation.id });
      if (!affected) throw ApiError.notFound('Reconciliation');
      await settleCoverage(manager, flow.id, before);
      await this.documents.recordUpdated(manager, document);
    });
  }

  private async present(manager: EntityManager, rows: Reconciliation[], expand: ReadonlySet<string>): Promise<ReconciliationDto[]> {
    const [flows, transactions] = await loadAll(manager, [
      async () =>
        expand.has('flow')
          ? byId(
              manager.getRepository(Flow),
              rows.map((r) => r.flowId),
            )
          : undefined,
      async () =>
        expand.has('transaction')
          ? byId(
              manager.getRepository(Transaction),
              rows.map((r) => r.transactionId),
            )
          : undefined,
    ] as const);
    const flowDtos = flows && new Map([...flows].map(([id, f]) => [id, presentFlow(f)]));
    const transactionDtos = transactions && new Map([...transactions].map(([id, t]) => [id, presentTransaction(t)]));
    return rows.map((r) => presentReconciliation(r, flowDtos, transactionDtos));
  }
}
