import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { ApiError } from '../common/errors/api-error.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { todayInRome } from '../common/validation/calendar-date.js';
import { Document } from '../documents/document.entity.js';
import { DocumentsService } from '../documents/documents.service.js';
import type { FlowDto, UpdateFlowDto } from './flow.dto.js';
import { coverageOf, type Coverage, lockFlow, settleCoverage } from './flow-coverage.js';
import { Flow } from './flow.entity.js';
import { presentFlow } from './flow.presenter.js';

export const flowList = defineList({
  alias: 'f',
  defaultSort: 'expected_payment_date,created_at',
  internalFields: {
    expected_payment_date: { column: 'f.expectedPaymentDate', type: 'date', nullable: true },
    created_at: { column: 'f.createdAt', type: 'datetime' },
  },
});

@Injectable()
export class FlowsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly documents: DocumentsService,
  ) {}

  async list(companyId: string, documentId: string, params: QueryParams): Promise<Page<FlowDto>> {
    const query = parseListQuery(params, flowList);
    await findOwned(this.db.getRepository(Document), companyId, documentId, 'Document');
    const base = this.db
      .getRepository(Flow)
      .createQueryBuilder('f')
      .where('f.companyId = :companyId AND f.documentId = :documentId', { companyId, documentId });
    const { rows, cursor } = await fetchPage(base, flowList, query);
    return page(rows.map(presentFlow), cursor, query.pageSize);
  }

  async get(companyId: string, documentId: string, id: string, params: QueryParams): Promise<FlowDto> {
    rejectUnknownParams(params, []);
    return presentFlow(await this.findFlow(this.db.manager, companyId, documentId, id));
  }

  /**
   * Applies a flow update. Rules: the amount keeps the document's currency; only a PAID flow has a payment_date
   * (setting PAID without one uses today); a flow its reconciliations pay cannot go back to TO_PAY while they exist;
   * a new amount re-checks that coverage.
   */
  async update(companyId: string, documentId: string, id: string, changes: UpdateFlowDto): Promise<FlowDto> {
    const named = Object.keys(changes).filter((key) => changes[key as keyof UpdateFlowDto] !== undefined);
    if (named.length === 0) {
      throw ApiError.of('bad_request', 'The body names no member to update.', '');
    }
    return this.db.transaction(async (manager) => {
      const found = await this.findFlow(manager, companyId, documentId, id);
      await lockFlow(manager, found.id);
      // Read again under the lock, so a concurrent change is not overwritten.
      const flow = await manager.getRepository(Flow).findOneByOrFail({ id: found.id });
      const document = await manager.getRepository(Document).findOneByOrFail({ id: flow.documentId });
      const before = await coverageOf(manager, flow.id);
      if (changes.amount) {
        if (changes.amount.currency !== document.currency.trim()) {
          throw ApiError.of(
            'currency_mismatch',
            `The flow's currency must be the document's (${document.currency.trim()}), got ${changes.amount.currency}.`,
            '/amount/currency',
          );
        }
        flow.amount = changes.amount.amount;
      }
      if (changes.expected_payment_date !== undefined) flow.expectedPaymentDate = changes.expected_payment_date;
      if (changes.payment_method !== undefined) flow.paymentMethod = changes.payment_method;
      if (changes.payment_status !== undefined || changes.payment_date !== undefined) {
        this.applyPaymentStatus(flow, changes, before);
      }
      await manager.getRepository(Flow).save(flow);
      // A new amount may make the reconciled transactions cover the flow, or no longer cover it.
      if (changes.amount && changes.payment_status === undefined && before.reconciled) {
        await settleCoverage(manager, flow.id, before);
      }
      await this.documents.recordUpdated(manager, companyId, flow.documentId);
      return presentFlow(await manager.getRepository(Flow).findOneByOrFail({ id: flow.id }));
    });
  }

  /** Only a PAID flow has a payment_date (today when none is given); a reconciled, covered flow stays PAID. */
  private applyPaymentStatus(flow: Flow, changes: UpdateFlowDto, coverage: Coverage): void {
    const status = changes.payment_status ?? flow.paymentStatus;
    if (status === 'TO_PAY') {
      if (changes.payment_date) {
        throw ApiError.of('unprocessable_entity', 'A flow TO_PAY has no payment_date; set payment_status to PAID or leave payment_date out.', '/payment_date');
      }
      if (coverage.covered) {
        throw ApiError.of('invalid_state', 'This flow is paid by its reconciled transactions; delete its reconciliations to set it TO_PAY.', '/payment_status');
      }
      flow.paymentDate = null;
    } else {
      if (changes.payment_date === null) {
        throw ApiError.of('unprocessable_entity', 'A PAID flow needs a payment_date.', '/payment_date');
      }
      flow.paymentDate = changes.payment_date ?? flow.paymentDate ?? todayInRome();
    }
    flow.paymentStatus = status;
  }

  private async findFlow(manager: EntityManager, companyId: string, documentId: string, id: string): Promise<Flow> {
    await findOwned(manager.getRepository(Document), companyId, documentId, 'Document');
    const flow = await findOwned(manager.getRepository(Flow), companyId, id, 'Flow');
    if (flow.documentId !== documentId.toLowerCase()) throw ApiError.notFound('Flow');
    return flow;
  }
}
