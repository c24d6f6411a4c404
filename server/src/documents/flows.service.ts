import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { compareAmounts, sameAmount } from '../common/money/money.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { todayInRome } from '../common/validation/calendar-date.js';
import type { CreateFlowDto, FlowDto, UpdateFlowDto } from '../flows/flow.dto.js';
import { coverageOf, type Coverage, covers } from '../flows/flow-coverage.js';
import type { Flow } from '../flows/flow.entity.js';
import { presentFlow } from '../flows/flow.presenter.js';
import { flowList, FlowsRepository } from '../flows/flows.repository.js';
import { DocumentsRepository, type LockedDocument } from './documents.repository.js';
import { DocumentsService } from './documents.service.js';

/** The members a PATCH can change: when none of them differs from what is stored, nothing happened. */
const FLOW_MEMBERS = ['amount', 'expectedPaymentDate', 'paymentMethod', 'paymentStatus', 'paymentDate'] as const;

@Injectable()
export class FlowsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly flows: FlowsRepository,
    private readonly documentRows: DocumentsRepository,
    private readonly documents: DocumentsService,
  ) {}

  async list(companyId: string, documentId: string, params: QueryParams): Promise<Page<FlowDto>> {
    const query = parseListQuery(params, flowList);
    await this.documentRows.findOwned(this.db.manager, companyId, documentId);
    const { rows, cursor } = await this.flows.page(companyId, documentId, query);
    return page(rows.map(presentFlow), cursor, query.pageSize);
  }

  async get(companyId: string, documentId: string, id: string): Promise<FlowDto> {
    return presentFlow(await this.findFlow(this.db.manager, companyId, documentId, id));
  }

  /**
   * Adds a flow (an instalment) to a document: TO_PAY, nothing paid, in the document's currency. The document's flows
   * may total at most its gross amount (flowsWithinGross). Records `document.updated`.
   */
  async create(companyId: string, documentId: string, body: CreateFlowDto): Promise<FlowDto> {
    if (compareAmounts(body.amount.amount, '0') <= 0) {
      throw ApiError.of('unprocessable_entity', 'amount must be greater than zero.', '/amount/amount');
    }
    return this.db.transaction(async (manager) => {
      const document = await this.documents.lockOwned(manager, companyId, documentId);
      this.sameCurrency(document, body.amount.currency);
      await this.flowsWithinGross(manager, document, body.amount.amount, null);
      const flow = await this.flows.insert(manager, {
        companyId: document.companyId,
        documentId: document.id,
        amount: body.amount.amount,
        currency: document.currency.trim(),
        paidAmount: '0',
        paymentStatus: 'TO_PAY',
        paymentMethod: body.payment_method ?? null,
        expectedPaymentDate: body.expected_payment_date ?? null,
        paymentDate: null,
      });
      await this.documents.recordUpdated(manager, document);
      return presentFlow(flow);
    });
  }

  /**
   * Deletes a flow that no reconciliation links (409 `flow_reconciled` otherwise: the money a transaction allocated to
   * it would vanish from the books). Records `document.updated`. A flow already deleted (also by a concurrent request)
   * is a 404 and records nothing.
   */
  async delete(companyId: string, documentId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const found = await this.findFlow(manager, companyId, documentId, id);
      const document = await this.documents.lock(manager, found.companyId, found.documentId, () => ApiError.notFound('Flow'));
      if (!(await this.flows.exists(manager, found.companyId, found.id))) throw ApiError.notFound('Flow');
      const coverage = await coverageOf(this.flows, manager, found.id);
      if (coverage.reconciled) {
        throw ApiError.of(
          'flow_reconciled',
          `The flow is reconciled (its reconciliations allocate ${coverage.paid} ${document.currency.trim()} to it); delete its reconciliations before deleting it.`,
        );
      }
      await this.flows.delete(manager, found.companyId, found.id);
      await this.documents.recordUpdated(manager, document);
    });
  }

  /**
   * Applies a flow update. Rules: the amount keeps the document's currency and never goes below what the flow's
   * reconciliations allocate to it; only a PAID flow has a payment_date (setting PAID without one uses today); coverage
   * is judged on the values after the change: a flow its allocations cover is PAID and cannot be set TO_PAY, and a new
   * amount that makes it covered, or no longer covered, moves its status unless the request sets one. A request that
   * changes nothing records nothing.
   */
  async update(companyId: string, documentId: string, id: string, changes: UpdateFlowDto): Promise<FlowDto> {
    const named = Object.keys(changes).filter((key) => changes[key as keyof UpdateFlowDto] !== undefined);
    if (named.length === 0) {
      throw ApiError.of('bad_request', 'The body names no member to update.', '');
    }
    return this.db.transaction(async (manager) => {
      const found = await this.findFlow(manager, companyId, documentId, id);
      const document = await this.documents.lock(manager, found.companyId, found.documentId, () => ApiError.notFound('Flow'));
      // Read again under the lock, so a concurrent change is not overwritten (or a concurrent delete is a 404).
      const flow = await this.flows.find(manager, found.companyId, found.id);
      if (!flow) throw ApiError.notFound('Flow');
      const stored = { ...flow };
      const before = await coverageOf(this.flows, manager, flow.id);
      if (changes.amount) {
        const currency = document.currency.trim();
        this.sameCurrency(document, changes.amount.currency);
        if (compareAmounts(changes.amount.amount, before.paid) < 0) {
          throw ApiError.of(
            'amount_below_reconciled',
            `The flow's reconciliations allocate ${before.paid} ${currency} to it; its amount can't be less. Delete reconciliations first.`,
            '/amount/amount',
          );
        }
        // Only a larger amount is held to the gross amount: lowering a flow is always possible, whatever the others total.
        if (compareAmounts(changes.amount.amount, flow.amount) > 0) await this.flowsWithinGross(manager, document, changes.amount.amount, flow.id);
        if (!sameAmount(changes.amount.amount, flow.amount)) flow.amount = changes.amount.amount;
      }
      if (changes.expected_payment_date !== undefined) flow.expectedPaymentDate = changes.expected_payment_date;
      if (changes.payment_method !== undefined) flow.paymentMethod = changes.payment_method;
      this.applyPaymentStatus(flow, changes, before, covers(before.reconciled, before.paid, flow.amount));
      if (FLOW_MEMBERS.every((member) => flow[member] === stored[member])) return presentFlow(flow);
      await this.flows.save(manager, flow);
      await this.documents.recordUpdated(manager, document);
      return presentFlow(flow);
    });
  }

  /**
   * Sets the status the request asks for, else the one coverage moves to (PAID when the new amount makes the flow
   * covered, TO_PAY when it no longer is), else keeps it. Only a PAID flow has a payment_date: the one given, else the
   * latest reconciled transaction's date when the flow just became covered, else the one it had, else today. A flow
   * its allocations cover stays PAID.
   */
  private applyPaymentStatus(flow: Flow, changes: UpdateFlowDto, before: Coverage, covered: boolean): void {
    const becameCovered = covered && !before.covered;
    const status = changes.payment_status ?? (becameCovered ? 'PAID' : before.covered && !covered ? 'TO_PAY' : flow.paymentStatus);
    if (status === 'TO_PAY') {
      if (changes.payment_date) {
        throw ApiError.of('unprocessable_entity', 'A flow TO_PAY has no payment_date; set payment_status to PAID or leave payment_date out.', '/payment_date');
      }
      if (covered) {
        throw ApiError.of('invalid_state', 'This flow is paid by its reconciled transactions; delete its reconciliations to set it TO_PAY.', '/payment_status');
      }
      flow.paymentDate = null;
    } else {
      if (changes.payment_date === null) {
        throw ApiError.of('unprocessable_entity', 'A PAID flow needs a payment_date.', '/payment_date');
      }
      flow.paymentDate = changes.payment_date ?? (becameCovered ? before.lastDate : flow.paymentDate) ?? todayInRome();
    }
    flow.paymentStatus = status;
  }

  private sameCurrency(document: LockedDocument, currency: string): void {
    const expected = document.currency.trim();
    if (currency !== expected) {
      throw ApiError.of('currency_mismatch', `The flow's currency must be the document's (${expected}), got ${currency}.`, '/amount/currency');
    }
  }

  /**
   * The document's flows, with `amount` for the flow being created (`replacing` null) or changed, may total at most
   * the document's gross amount: 422 `flows_exceed_gross_amount` otherwise. Amounts are stored without a sign (the
   * database refuses negative ones), credit notes too, so this compares absolute values. Read under the document's
   * lock, so concurrent creations cannot each pass the check against the same total.
   */
  private async flowsWithinGross(manager: EntityManager, document: LockedDocument, amount: string, replacing: string | null): Promise<void> {
    const totals = await this.flows.totals(manager, document.id, amount, replacing);
    if (compareAmounts(totals.total, totals.gross) > 0) {
      const currency = document.currency.trim();
      throw ApiError.of(
        'flows_exceed_gross_amount',
        `The document's flows would total ${totals.total} ${currency}, more than its gross amount of ${totals.gross} ${currency}; ${totals.left} ${currency} is left for new or larger flows.`,
        '/amount/amount',
      );
    }
  }

  private async findFlow(manager: EntityManager, companyId: string, documentId: string, id: string): Promise<Flow> {
    await this.documentRows.findOwned(manager, companyId, documentId);
    const flow = await this.flows.findOwned(manager, companyId, id);
    if (flow.documentId !== documentId.toLowerCase()) throw ApiError.notFound('Flow');
    return flow;
  }
}
