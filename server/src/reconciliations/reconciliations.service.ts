import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { loadAll } from '../common/database/load-all.js';
import { ApiError } from '../common/errors/api-error.js';
import { EventsService } from '../common/events/events.service.js';
import { compareAmounts } from '../common/money/money.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { flowsComeIn } from '../documents/document.enums.js';
import { DocumentsService } from '../documents/documents.service.js';
import { coverageOf, settleCoverage } from '../flows/flow-coverage.js';
import type { Flow } from '../flows/flow.entity.js';
import { presentFlow } from '../flows/flow.presenter.js';
import { FlowsRepository } from '../flows/flows.repository.js';
import type { Transaction } from '../transactions/transaction.entity.js';
import { presentTransaction } from '../transactions/transaction.presenter.js';
import { TransactionsRepository } from '../transactions/transactions.repository.js';
import type { CreateReconciliationDto, ReconciliationDto } from '../transactions/reconciliation.dto.js';
import type { Reconciliation } from '../transactions/reconciliation.entity.js';
import { presentReconciliation } from '../transactions/reconciliation.presenter.js';
import { RECONCILIATION_EXPANSIONS, reconciliationList, ReconciliationsRepository } from './reconciliations.repository.js';

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
    private readonly repository: ReconciliationsRepository,
    private readonly flows: FlowsRepository,
    private readonly transactions: TransactionsRepository,
    private readonly documents: DocumentsService,
    private readonly events: EventsService,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<ReconciliationDto>> {
    const query = parseListQuery(params, reconciliationList);
    const { rows, cursor } = await this.repository.page(companyId, query);
    return page(await this.present(this.db.manager, rows, query.expand), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, expand: Set<string>): Promise<ReconciliationDto> {
    const reconciliation = await this.repository.findOwned(this.db.manager, companyId, id);
    const [presented] = await this.present(this.db.manager, [reconciliation], expand);
    return presented;
  }

  async create(companyId: string, body: CreateReconciliationDto): Promise<ReconciliationDto> {
    if (body.amount && compareAmounts(body.amount.amount, '0') <= 0) {
      throw ApiError.of('unprocessable_entity', 'amount must be greater than zero.', '/amount/amount');
    }
    return this.db.transaction(async (manager) => {
      const flow = await this.flows.findOwned(manager, companyId, body.flow_id, '/flow_id');
      const transaction = await this.transactions.findOwned(manager, companyId, body.transaction_id, '/transaction_id');
      const gone = () => ApiError.notFound('Flow', '/flow_id');
      const document = await this.documents.lock(manager, flow.companyId, flow.documentId, gone);
      // The flow (or its document) may have been deleted while this request waited for the lock.
      if (!(await this.flows.exists(manager, flow.companyId, flow.id))) throw gone();
      // Serializes reconciliations of the same transaction (with flows of any document), whose amount they share.
      await this.transactions.lockForAllocation(manager, transaction);
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
      if (await this.repository.linked(manager, flow.id, transaction.id)) {
        throw ApiError.of('reconciliation_exists', 'This flow and this transaction are already reconciled.', '/transaction_id');
      }
      const amount = await this.allocation(manager, flow, transaction, body.amount?.amount);
      const before = await coverageOf(this.flows, manager, flow.id);
      const saved = await this.repository.insert(manager, { companyId: flow.companyId, flowId: flow.id, transactionId: transaction.id, amount, currency });
      await settleCoverage(this.flows, manager, flow.id, before);
      const updated = await this.documents.recordUpdated(manager, document);
      const [presented] = await this.present(manager, [saved], new Set(RECONCILIATION_EXPANSIONS));
      // At the instant of the document's change it is part of (its flow now paid), right after it.
      await this.events.record(manager, saved.companyId, 'reconciliation.created', presented, new Date(updated.updated_at));
      return presented;
    });
  }

  /** The amount a new link allocates: the one asked for, else the lesser of what remains of either side. */
  private async allocation(manager: EntityManager, flow: Flow, transaction: Transaction, asked: string | undefined): Promise<string> {
    const left = await this.repository.remaining(manager, transaction.id, flow.id);
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
      const reconciliation = await this.repository.findOwned(manager, companyId, id);
      const gone = () => ApiError.notFound('Reconciliation');
      // A concurrent deletion of its flow or document deletes the reconciliation with it.
      const flow = await this.flows.find(manager, reconciliation.companyId, reconciliation.flowId);
      if (!flow) throw gone();
      const document = await this.documents.lock(manager, flow.companyId, flow.documentId, gone);
      const before = await coverageOf(this.flows, manager, flow.id);
      // Announced as it was, every member expanded as when it was created (its flow before the payment goes).
      const [was] = await this.present(manager, [reconciliation], new Set(RECONCILIATION_EXPANSIONS));
      if (!(await this.repository.delete(manager, reconciliation))) throw ApiError.notFound('Reconciliation');
      await settleCoverage(this.flows, manager, flow.id, before);
      const updated = await this.documents.recordUpdated(manager, document);
      await this.events.record(manager, reconciliation.companyId, 'reconciliation.deleted', was, new Date(updated.updated_at));
    });
  }

  private async present(manager: EntityManager, rows: Reconciliation[], expand: ReadonlySet<string>): Promise<ReconciliationDto[]> {
    const [flows, transactions] = await loadAll(manager, [
      async () =>
        expand.has('flow')
          ? this.flows.byIds(
              manager,
              rows.map((r) => r.flowId),
            )
          : undefined,
      async () =>
        expand.has('transaction')
          ? this.transactions.byIds(
              manager,
              rows.map((r) => r.transactionId),
            )
          : undefined,
    ] as const);
    const flowDtos = flows && new Map([...flows].map(([id, f]) => [id, presentFlow(f)]));
    const transactionDtos = transactions && new Map([...transactions].map(([id, t]) => [id, presentTransaction(t)]));
    return rows.map((r) => presentReconciliation(r, flowDtos, transactionDtos));
  }
}
