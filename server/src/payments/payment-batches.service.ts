import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseExpand, parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { checkBatch, compactId, namedFlows, rejectMalformedFlowIds, requireOwnedFlows } from './payment-batch-checks.js';
import type { CreateBulkPaymentDto, PaymentBatchDto } from './payment-batch.dto.js';
import type { PaymentBatch } from './payment-batch.entity.js';
import { presentPaymentBatch, presentPayments } from './payment-batch.presenter.js';
import { PAYMENT_BATCH_EXPANSIONS, paymentBatchList, PaymentBatchesRepository, type FlowFacts } from './payment-batches.repository.js';
import { toSepaText } from './sepa/charset.js';
import { controlSum, SEPA_LIMITS, writePain001 } from './sepa/pain001.js';

/**
 * Bulk payment requests and their payment batches. A request is checked whole before anything is written
 * (payment-batch-checks.ts). Nothing else changes: a batch is a draft the company takes to its bank, so flows keep
 * their status (and no event is sent) until the bank's debit is reconciled with them. Flows are not reserved by a
 * batch: a draft may never reach the bank, and a new batch may name the same flows again.
 */
@Injectable()
export class PaymentBatchesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly batches: PaymentBatchesRepository,
    private readonly accounts: AccountsRepository,
    private readonly companies: CompaniesRepository,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<PaymentBatchDto>> {
    const query = parseListQuery(params, paymentBatchList);
    const { rows, cursor } = await this.batches.page(companyId, query);
    return page(await this.present(this.db.manager, rows, query.expand.has('payments')), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<PaymentBatchDto> {
    rejectUnknownParams(params, ['expand']);
    const expand = parseExpand(params, PAYMENT_BATCH_EXPANSIONS);
    const batch = await this.batches.findOwned(companyId, id);
    const [presented] = await this.present(this.db.manager, [batch], expand.has('payments'));
    return presented;
  }

  /** The batch's SEPA credit-transfer file and the name to save it under. */
  async file(companyId: string, id: string, params: QueryParams): Promise<{ fileName: string; xml: string }> {
    rejectUnknownParams(params, []);
    const batch = await this.batches.findOwned(companyId, id);
    const [presented] = await this.present(this.db.manager, [batch], true);
    const xml = writePain001({
      messageId: batch.messageId,
      createdAt: batch.createdAt,
      paymentInformationId: `${batch.messageId}-1`,
      requestedExecutionDate: batch.requestedExecutionDate,
      debtor: { name: batch.debtorName, iban: batch.debtorIban, bic: batch.debtorBic },
      transfers: presented.payments!.map((p) => ({
        endToEndId: p.end_to_end_id,
        amount: p.amount.amount,
        creditorName: p.payee_name,
        creditorIban: p.iban,
        remittanceInformation: p.remittance_information,
      })),
    });
    return { fileName: `${batch.messageId}.xml`, xml };
  }

  async create(companyId: string, body: CreateBulkPaymentDto): Promise<PaymentBatchDto> {
    rejectMalformedFlowIds(body);
    return this.db.transaction(async (manager) => {
      const account = await this.accounts.findOwned(manager, companyId, body.account_id, '/account_id');
      const flows = await this.ownedFlows(manager, companyId, body);
      const { executionDate, debtorIban, debtorBic, payments } = checkBatch(body, account, flows);

      const company = await this.companies.get(manager, companyId);
      const id = randomUUID();
      const batch = await this.batches.create(
        manager,
        {
          id,
          companyId,
          accountId: account.id,
          status: 'DRAFT',
          messageId: compactId(id),
          requestedExecutionDate: executionDate,
          debtorName: toSepaText(company.name).slice(0, SEPA_LIMITS.nameLength).trim(),
          debtorIban,
          debtorBic,
          paymentCount: payments.length,
          controlSum: controlSum(payments),
          currency: 'EUR',
        },
        payments.map((p, position) => ({
          id: p.id,
          companyId,
          batchId: id,
          position,
          endToEndId: p.endToEndId,
          payeeName: p.payeeName,
          iban: p.iban,
          amount: p.amount,
          currency: 'EUR',
          remittanceInformation: p.remittanceInformation,
        })),
        payments.flatMap((p) => p.flowIds.map((flowId, position) => ({ companyId, paymentId: p.id, flowId, position }))),
      );
      const [presented] = await this.present(manager, [batch], true);
      return presented;
    });
  }

  /** The flows the payments name, each the company's: the first one missing is a 404, of another company a 403. */
  private async ownedFlows(manager: EntityManager, companyId: string, body: CreateBulkPaymentDto): Promise<Map<string, FlowFacts>> {
    const named = namedFlows(body);
    if (named.length === 0) return new Map();
    const flows = new Map((await this.batches.flowFacts(manager, [...new Set(named.map((n) => n.id))])).map((flow) => [flow.id, flow]));
    requireOwnedFlows(named, flows, companyId);
    return flows;
  }

  private async present(manager: EntityManager, batches: PaymentBatch[], withPayments: boolean): Promise<PaymentBatchDto[]> {
    const payments = withPayments
      ? presentPayments(
          await this.batches.paymentsOf(
            manager,
            batches.map((b) => b.id),
          ),
        )
      : null;
    return batches.map((b) => presentPaymentBatch(b, payments));
  }
}
