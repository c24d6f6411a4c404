import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import type { Direction, DocumentType } from '../documents/document.enums.js';
import { PAYMENT_BATCH_STATUSES, PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow } from './payment-batch.entity.js';

export const PAYMENT_BATCH_EXPANSIONS = ['payments'] as const;

export const paymentBatchList = defineList({
  alias: 'b',
  filters: {
    status: { column: 'b.status', type: 'enum', values: PAYMENT_BATCH_STATUSES },
    account_id: { column: 'b.accountId', type: 'uuid' },
    requested_execution_date: { column: 'b.requestedExecutionDate', type: 'date' },
    created_at: { column: 'b.createdAt', type: 'datetime' },
  },
  sorts: {
    created_at: { column: 'b.createdAt', type: 'datetime' },
    requested_execution_date: { column: 'b.requestedExecutionDate', type: 'date' },
  },
  defaultSort: '-created_at',
  expansions: PAYMENT_BATCH_EXPANSIONS,
});

/** What a flow named by a payment is, as far as paying it goes. */
export interface FlowFacts {
  id: string;
  companyId: string;
  currency: string;
  paymentStatus: string;
  /** What is left to pay: the amount less what reconciliations already allocate. */
  remaining: string;
  direction: Direction;
  type: DocumentType;
}

/** The payments of some batches in request order, and each payment's flow ids in theirs. */
export interface BatchPayments {
  payments: PaymentBatchPayment[];
  flowIds: Map<string, string[]>;
}

export type NewBatch = Omit<PaymentBatch, 'createdAt' | 'updatedAt'>;
export type NewPayment = PaymentBatchPayment;
export type NewPaymentFlow = Pick<PaymentBatchPaymentFlow, 'companyId' | 'paymentId' | 'flowId' | 'position'>;

const EXAMPLE_BATCH: NewBatch = {
  id: DummyValue.UUID,
  companyId: DummyValue.COMPANY_ID,
  accountId: DummyValue.UUID,
  status: 'DRAFT',
  messageId: '00000000000040008000000000000001',
  requestedExecutionDate: DummyValue.DATE,
  debtorName: 'Rossi S.r.l.',
  debtorIban: 'IT60X0542811101000000123456',
  debtorBic: null,
  paymentCount: 1,
  controlSum: '10.00',
  currency: 'EUR',
};

/** The SQL of payment batches: pages, 404/403 reads, what a payment's flows are, the batch's writes and its payments. */
@Injectable()
export class PaymentBatchesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the company's payment batches. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, paymentBatchList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: PaymentBatch[]; cursor: string | null }> {
    const base = this.db.getRepository(PaymentBatch).createQueryBuilder('b').where('b.companyId = :companyId', { companyId });
    return fetchPage(base, paymentBatchList, query);
  }

  /** The company's payment batch: 404, or 403 when it is another company's. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(companyId: string, id: string): Promise<PaymentBatch> {
    return findOwned(this.db.getRepository(PaymentBatch), companyId, id, 'Payment batch');
  }

  /** The flows with these ids, whoever's they are (the caller tells 403 from 404). */
  @GenerateSql({ params: [DummyValue.MANAGER, [DummyValue.UUID]] })
  async flowFacts(manager: EntityManager, ids: readonly string[]): Promise<FlowFacts[]> {
    const rows: Array<{
      id: string;
      company_id: string;
      currency: string;
      payment_status: string;
      remaining: string;
      direction: Direction;
      type: DocumentType;
    }> = await manager.query(
      `SELECT f.id, f.company_id, f.currency, f.payment_status, (f.amount - f.paid_amount)::text AS remaining, d.direction, d.type
           FROM flows f JOIN documents d ON d.id = f.document_id
          WHERE f.id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map((r) => ({
      id: r.id,
      companyId: r.company_id,
      currency: r.currency.trim(),
      paymentStatus: r.payment_status,
      remaining: r.remaining,
      direction: r.direction,
      type: r.type,
    }));
  }

  /** Writes a batch, its payments and the flows each pays, in the caller's transaction; the batch as stored. */
  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      EXAMPLE_BATCH,
      [
        {
          id: DummyValue.UUID,
          companyId: DummyValue.COMPANY_ID,
          batchId: DummyValue.UUID,
          position: 0,
          endToEndId: 'E2E1',
          payeeName: 'Bianchi',
          iban: 'IT60X0542811101000000123456',
          amount: '10.00',
          currency: 'EUR',
          remittanceInformation: null,
        },
      ],
      [{ companyId: DummyValue.COMPANY_ID, paymentId: DummyValue.UUID, flowId: DummyValue.UUID, position: 0 }],
    ],
  })
  async create(manager: EntityManager, batch: NewBatch, payments: NewPayment[], flows: NewPaymentFlow[]): Promise<PaymentBatch> {
    const batches = manager.getRepository(PaymentBatch);
    const saved = await batches.save(batches.create(batch));
    await manager.getRepository(PaymentBatchPayment).insert(payments);
    if (flows.length > 0) await manager.getRepository(PaymentBatchPaymentFlow).insert(flows);
    return saved;
  }

  /** The payments of some batches with their flow ids, in request order: two queries for any number of batches. */
  @GenerateSql({ params: [DummyValue.MANAGER, [DummyValue.UUID]] })
  async paymentsOf(manager: EntityManager, batchIds: readonly string[]): Promise<BatchPayments> {
    if (batchIds.length === 0) return { payments: [], flowIds: new Map() };
    const payments = await manager
      .getRepository(PaymentBatchPayment)
      .find({ where: { batchId: In([...batchIds]) }, order: { batchId: 'ASC', position: 'ASC' } });
    const links =
      payments.length === 0
        ? []
        : await manager.getRepository(PaymentBatchPaymentFlow).find({ where: { paymentId: In(payments.map((p) => p.id)) }, order: { position: 'ASC' } });
    const flowIds = new Map<string, string[]>();
    for (const link of links) flowIds.set(link.paymentId, [...(flowIds.get(link.paymentId) ?? []), link.flowId]);
    return { payments, flowIds };
  }
}
