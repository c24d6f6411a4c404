import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import { Company } from '../companies/company.entity.js';
import { findOwned } from '../common/database/find-owned.js';
import { ApiError, bodyPointer, errorItem, type ErrorItem } from '../common/errors/api-error.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { compareAmounts } from '../common/money/money.js';
import { todayInRome } from '../common/validation/calendar-date.js';
import { ibanProblem, normalizeIban } from '../common/validation/iban.js';
import { isUuid } from '../common/validation/uuid.js';
import { flowsComeIn, type Direction, type DocumentType } from '../documents/document.enums.js';
import { BASE_PATH } from '../config/api-version.js';
import type { CreateBulkPaymentDto, PaymentBatchDto, PaymentBatchPaymentDto } from './payment-batch.dto.js';
import { PAYMENT_BATCH_STATUSES, PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow } from './payment-batch.entity.js';
import { toSepaText, sepaReferenceProblem } from './sepa/charset.js';
import { SEPA_COUNTRIES } from './sepa/countries.js';
import { controlSum, fromCents, SEPA_LIMITS, toCents, writePain001 } from './sepa/pain001.js';

const PAYMENT_BATCH_EXPANSIONS = ['payments'] as const;

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

/** A BIC (ISO 9362): bank, country, location, optional branch. */
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** How far ahead an execution date may be. */
const MAX_DAYS_AHEAD = 365;

/** What a flow named by a payment is, as far as paying it goes. */
interface FlowFacts {
  id: string;
  companyId: string;
  currency: string;
  paymentStatus: string;
  /** What is left to pay: the amount less what reconciliations already allocate. */
  remaining: string;
  direction: Direction;
  type: DocumentType;
}

/** A payment as it goes into the batch and the file. */
interface PreparedPayment {
  id: string;
  endToEndId: string;
  payeeName: string;
  iban: string;
  amount: string;
  remittanceInformation: string | null;
  flowIds: string[];
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Reference-free id in capitals without dashes (32 characters), valid as any SEPA reference. */
const compactId = (id: string) => id.replace(/-/g, '').toUpperCase();

/**
 * Bulk payment requests and their payment batches. A request is checked whole before anything is written: the paying
 * account and the flows must be the company's (403/404 for the first that is not), then every value problem of every
 * payment is reported at once (422, one error per problem, each with its pointer). Nothing else changes: a batch is a
 * draft the company takes to its bank, so flows keep their status (and no event is sent) until the bank's debit is
 * reconciled with them. Flows are not reserved by a batch: a draft may never reach the bank, and a new batch may name
 * the same flows again.
 */
@Injectable()
export class PaymentBatchesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(companyId: string, params: QueryParams): Promise<Page<PaymentBatchDto>> {
    const query = parseListQuery(params, paymentBatchList);
    const base = this.db.getRepository(PaymentBatch).createQueryBuilder('b').where('b.companyId = :companyId', { companyId });
    const { rows, cursor } = await fetchPage(base, paymentBatchList, query);
    return page(await this.present(this.db.manager, rows, query.expand.has('payments')), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, expand: Set<string>): Promise<PaymentBatchDto> {
    const batch = await findOwned(this.db.getRepository(PaymentBatch), companyId, id, 'Payment batch');
    const [presented] = await this.present(this.db.manager, [batch], expand.has('payments'));
    return presented;
  }

  /** The batch's SEPA credit-transfer file and the name to save it under. */
  async file(companyId: string, id: string): Promise<{ fileName: string; xml: string }> {
    const batch = await findOwned(this.db.getRepository(PaymentBatch), companyId, id, 'Payment batch');
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
      const account = await findOwned(manager.getRepository(Account), companyId, body.account_id, 'Account', '/account_id');
      const flows = await this.ownedFlows(manager, companyId, body);
      const problems: ErrorItem[] = [];
      const today = todayInRome();
      const executionDate = body.requested_execution_date ?? today;
      if (body.requested_execution_date !== undefined) {
        if (executionDate < today) {
          problems.push(errorItem('unprocessable_entity', `requested_execution_date must be today (${today}) or later.`, '/requested_execution_date'));
        } else if (executionDate > addDays(today, MAX_DAYS_AHEAD)) {
          problems.push(
            errorItem('unprocessable_entity', `requested_execution_date must be within ${MAX_DAYS_AHEAD} days of today.`, '/requested_execution_date'),
          );
        }
      }
      const debtorIban = this.debtorIban(account, problems);
      const debtorBic = body.debtor_bic ? body.debtor_bic.replace(/\s+/g, '').toUpperCase() : null;
      if (debtorBic !== null && !BIC.test(debtorBic)) {
        problems.push(errorItem('unprocessable_entity', 'debtor_bic must be a BIC of 8 or 11 letters and digits (BPMOIT22 or BPMOIT22XXX).', '/debtor_bic'));
      }
      const payments = preparePayments(body, flows, problems);
      if (problems.length > 0) throw new ApiError(422, problems);

      const company = await manager.getRepository(Company).findOneByOrFail({ id: companyId });
      const id = randomUUID();
      const batch = await manager.getRepository(PaymentBatch).save(
        manager.getRepository(PaymentBatch).create({
          id,
          companyId,
          accountId: account.id,
          status: 'DRAFT',
          messageId: compactId(id),
          requestedExecutionDate: executionDate,
          debtorName: toSepaText(company.name).slice(0, SEPA_LIMITS.nameLength).trim(),
          debtorIban: debtorIban!,
          debtorBic,
          paymentCount: payments.length,
          controlSum: controlSum(payments),
          currency: 'EUR',
        }),
      );
      await manager.getRepository(PaymentBatchPayment).insert(
        payments.map((p, position) => ({
          id: p.id,
          companyId,
          batchId: batch.id,
          position,
          endToEndId: p.endToEndId,
          payeeName: p.payeeName,
          iban: p.iban,
          amount: p.amount,
          currency: 'EUR',
          remittanceInformation: p.remittanceInformation,
        })),
      );
      const links = payments.flatMap((p) => p.flowIds.map((flowId, position) => ({ companyId, paymentId: p.id, flowId, position })));
      if (links.length > 0) await manager.getRepository(PaymentBatchPaymentFlow).insert(links);
      const [presented] = await this.present(manager, [batch], true);
      return presented;
    });
  }

  /** The paying account's IBAN, or a problem: it needs a valid one, and EUR (or no currency set). */
  private debtorIban(account: Account, problems: ErrorItem[]): string | null {
    if (!account.iban) {
      problems.push(errorItem('account_without_iban', 'This account has no IBAN, so it cannot pay by SEPA credit transfer.', '/account_id'));
      return null;
    }
    const problem = ibanProblem(account.iban);
    if (problem) {
      problems.push(errorItem('account_without_iban', `This account's IBAN is not valid: ${problem}`, '/account_id'));
      return null;
    }
    const currency = account.currency?.trim();
    if (currency && currency !== 'EUR') {
      problems.push(errorItem('currency_mismatch', `This account is in ${currency}; SEPA credit transfers are in EUR.`, '/account_id'));
    }
    return normalizeIban(account.iban);
  }

  /** The flows the payments name, each the company's: the first one missing is a 404, of another company a 403. */
  private async ownedFlows(manager: EntityManager, companyId: string, body: CreateBulkPaymentDto): Promise<Map<string, FlowFacts>> {
    const named = body.payments.flatMap((p, i) =>
      ((p.flow_ids ?? []) as string[]).map((id, j) => ({ id: id.toLowerCase(), pointer: bodyPointer('payments', i, 'flow_ids', j) })),
    );
    if (named.length === 0) return new Map();
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
      [[...new Set(named.map((n) => n.id))]],
    );
    const flows = new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          companyId: r.company_id,
          currency: r.currency.trim(),
          paymentStatus: r.payment_status,
          remaining: r.remaining,
          direction: r.direction,
          type: r.type,
        },
      ]),
    );
    for (const { id, pointer } of named) {
      const flow = flows.get(id);
      if (!flow) throw ApiError.notFound('Flow', pointer);
      if (flow.companyId !== companyId.toLowerCase()) throw ApiError.forbidden('This API key has no access to this flow.', pointer);
    }
    return flows;
  }

  private async present(manager: EntityManager, batches: PaymentBatch[], withPayments: boolean): Promise<PaymentBatchDto[]> {
    const payments = withPayments ? await this.paymentsOf(manager, batches) : undefined;
    return batches.map((b) => ({
      id: b.id,
      status: b.status,
      account_id: b.accountId,
      message_id: b.messageId,
      requested_execution_date: b.requestedExecutionDate,
      debtor: { name: b.debtorName, iban: b.debtorIban, bic: b.debtorBic },
      payment_count: b.paymentCount,
      control_sum: { amount: b.controlSum, currency: b.currency.trim() },
      file_url: `${BASE_PATH}/companies/${b.companyId}/payment-batches/${b.id}/file`,
      payments: payments ? (payments.get(b.id) ?? []) : null,
      created_at: b.createdAt.toISOString(),
      updated_at: b.updatedAt.toISOString(),
    }));
  }

  /** The payments of some batches with their flow ids, in request order: two queries for any number of batches. */
  private async paymentsOf(manager: EntityManager, batches: PaymentBatch[]): Promise<Map<string, PaymentBatchPaymentDto[]>> {
    const byBatch = new Map<string, PaymentBatchPaymentDto[]>();
    if (batches.length === 0) return byBatch;
    const rows = await manager.getRepository(PaymentBatchPayment).find({
      where: { batchId: In(batches.map((b) => b.id)) },
      order: { batchId: 'ASC', position: 'ASC' },
    });
    const links =
      rows.length === 0
        ? []
        : await manager.getRepository(PaymentBatchPaymentFlow).find({ where: { paymentId: In(rows.map((r) => r.id)) }, order: { position: 'ASC' } });
    const flowIds = new Map<string, string[]>();
    for (const link of links) flowIds.set(link.paymentId, [...(flowIds.get(link.paymentId) ?? []), link.flowId]);
    for (const r of rows) {
      const list = byBatch.get(r.batchId) ?? [];
      list.push({
        id: r.id,
        end_to_end_id: r.endToEndId,
        payee_name: r.payeeName,
        iban: r.iban,
        amount: { amount: r.amount, currency: r.currency.trim() },
        remittance_information: r.remittanceInformation,
        flow_ids: flowIds.get(r.id) ?? [],
      });
      byBatch.set(r.batchId, list);
    }
    return byBatch;
  }
}

/** Flow ids must be uuids written as strings: anything else is malformed (400), each pointed at. */
function rejectMalformedFlowIds(body: CreateBulkPaymentDto): void {
  const items: ErrorItem[] = [];
  body.payments.forEach((payment, i) =>
    (payment.flow_ids ?? []).forEach((id, j) => {
      if (typeof id !== 'string' || !isUuid(id)) items.push(errorItem('bad_request', 'A flow id must be a uuid.', bodyPointer('payments', i, 'flow_ids', j)));
    }),
  );
  if (items.length > 0) throw new ApiError(400, items);
}

/** Every payment checked and put in the file's terms; problems are collected, one per offending member. */
function preparePayments(body: CreateBulkPaymentDto, flows: ReadonlyMap<string, FlowFacts>, problems: ErrorItem[]): PreparedPayment[] {
  const endToEndIds = new Map<string, number>();
  const flowRows = new Map<string, number>();
  return body.payments.map((row, i) => {
    const at = (...segments: Array<string | number>) => bodyPointer('payments', i, ...segments);
    const id = randomUUID();

    const payeeName = toSepaText(row.payee_name);
    if (!/[A-Za-z0-9]/.test(payeeName)) {
      problems.push(errorItem('unprocessable_entity', 'payee_name must hold letters or digits of the SEPA character set.', at('payee_name')));
    } else if (payeeName.length > SEPA_LIMITS.nameLength) {
      problems.push(
        errorItem(
          'unprocessable_entity',
          `payee_name may be at most ${SEPA_LIMITS.nameLength} characters long; it is ${payeeName.length} in the SEPA character set.`,
          at('payee_name'),
        ),
      );
    }

    const iban = normalizeIban(row.iban);
    const ibanIssue = ibanProblem(row.iban);
    if (ibanIssue) problems.push(errorItem('invalid_iban', ibanIssue, at('iban')));
    else if (!SEPA_COUNTRIES.has(iban.slice(0, 2))) {
      problems.push(
        errorItem('iban_not_sepa', `${iban.slice(0, 2)} is not a country of the SEPA schemes: a SEPA credit transfer cannot reach this IBAN.`, at('iban')),
      );
    }

    const amount = checkAmount(row.amount.amount, row.amount.currency, at, problems);

    let remittanceInformation: string | null = null;
    if (row.remittance_information !== undefined && row.remittance_information !== null) {
      remittanceInformation = toSepaText(row.remittance_information);
      // Refused like a payee name with nothing left: dropping it would pay without the reference the client sent.
      if (!/[A-Za-z0-9]/.test(remittanceInformation)) {
        problems.push(
          errorItem('unprocessable_entity', 'remittance_information must hold letters or digits of the SEPA character set.', at('remittance_information')),
        );
      } else if (remittanceInformation.length > SEPA_LIMITS.remittanceLength) {
        problems.push(
          errorItem(
            'unprocessable_entity',
            `remittance_information may be at most ${SEPA_LIMITS.remittanceLength} characters long; it is ${remittanceInformation.length} in the SEPA character set.`,
            at('remittance_information'),
          ),
        );
      }
    }

    const endToEndId = row.end_to_end_id ?? compactId(id);
    const referenceIssue = sepaReferenceProblem(endToEndId);
    if (referenceIssue) problems.push(errorItem('unprocessable_entity', `end_to_end_id ${referenceIssue}.`, at('end_to_end_id')));
    else if (endToEndIds.has(endToEndId)) {
      problems.push(
        errorItem('unprocessable_entity', `end_to_end_id is already used by payment ${endToEndIds.get(endToEndId)} of this request.`, at('end_to_end_id')),
      );
    } else endToEndIds.set(endToEndId, i);

    const flowIds = ((row.flow_ids ?? []) as string[]).map((f) => f.toLowerCase());
    checkFlows(flowIds, i, amount, flows, flowRows, at, problems);
    return { id, endToEndId, payeeName, iban, amount: amount ?? '0', remittanceInformation, flowIds };
  });
}

/** A SEPA amount: EUR, more than zero, at most two decimals and 999,999,999.99. Its two-decimal form, or null. */
function checkAmount(value: string, currency: string, at: (...s: Array<string | number>) => string, problems: ErrorItem[]): string | null {
  let ok = true;
  if (currency !== 'EUR') {
    problems.push(errorItem('currency_mismatch', `SEPA credit transfers are in EUR; got ${currency}.`, at('amount', 'currency')));
    ok = false;
  }
  if ((value.split('.')[1] ?? '').replace(/0+$/, '').length > 2) {
    problems.push(errorItem('invalid_amount', 'amount may have at most two decimals (euro cents).', at('amount', 'amount')));
    return null;
  }
  if (compareAmounts(value, '0') <= 0) {
    problems.push(errorItem('invalid_amount', 'amount must be more than zero.', at('amount', 'amount')));
    return null;
  }
  if (compareAmounts(value, SEPA_LIMITS.maxAmount) > 0) {
    problems.push(errorItem('invalid_amount', `amount may be at most ${SEPA_LIMITS.maxAmount} in one SEPA credit transfer.`, at('amount', 'amount')));
    return null;
  }
  return ok ? fromCents(toCents(value)) : null;
}

/**
 * The flows of one payment: each named once in the request, money going out (a received document's, or an issued
 * credit note's), TO_PAY, in EUR; and the payment's amount at most what remains to be paid of them together.
 */
function checkFlows(
  flowIds: string[],
  row: number,
  amount: string | null,
  flows: ReadonlyMap<string, FlowFacts>,
  flowRows: Map<string, number>,
  at: (...s: Array<string | number>) => string,
  problems: ErrorItem[],
): void {
  let remainingCents = 0n;
  let payable = true;
  flowIds.forEach((flowId, j) => {
    const flow = flows.get(flowId)!;
    const seen = flowRows.get(flowId);
    if (seen !== undefined) {
      problems.push(
        errorItem(
          'unprocessable_entity',
          seen === row ? 'This flow is named twice in this payment.' : `This flow is already paid by payment ${seen} of this request.`,
          at('flow_ids', j),
        ),
      );
      payable = false;
      return;
    }
    flowRows.set(flowId, row);
    if (flowsComeIn(flow)) {
      problems.push(
        errorItem(
          'flow_not_payable',
          `This flow is money coming in (${flow.direction} ${flow.type}); a bulk payment pays only flows going out.`,
          at('flow_ids', j),
        ),
      );
      payable = false;
    } else if (flow.paymentStatus !== 'TO_PAY') {
      problems.push(errorItem('flow_not_payable', `This flow is ${flow.paymentStatus}; only TO_PAY flows can be paid.`, at('flow_ids', j)));
      payable = false;
    } else if (flow.currency !== 'EUR') {
      problems.push(errorItem('currency_mismatch', `This flow is in ${flow.currency}; SEPA credit transfers are in EUR.`, at('flow_ids', j)));
      payable = false;
    } else {
      remainingCents += toCents(flow.remaining);
    }
  });
  if (payable && amount !== null && flowIds.length > 0 && toCents(amount) > remainingCents) {
    problems.push(
      errorItem(
        'amount_exceeds_remaining',
        `Only ${fromCents(remainingCents)} EUR of ${flowIds.length === 1 ? 'this flow remains' : 'these flows remain'} to be paid.`,
        at('amount', 'amount'),
      ),
    );
  }
}
