/**
 * The checks of a bulk payment request, before anything is written: flow ids well formed (400), the flows named the
 * company's (404/403 for the first that is not), then every value problem of every payment at once (422, one error
 * per problem, each with its pointer). Pure: the service loads the account and the flows first.
 */
import { randomUUID } from 'node:crypto';
import type { Account } from '../accounts/account.entity.js';
import { ApiError, bodyPointer, errorItem, type ErrorItem } from '../common/errors/api-error.js';
import { compareAmounts } from '../common/money/money.js';
import { todayInRome } from '../common/validation/calendar-date.js';
import { ibanProblem, normalizeIban } from '../common/validation/iban.js';
import { isUuid } from '../common/validation/uuid.js';
import { flowsComeIn } from '../documents/document.enums.js';
import type { CreateBulkPaymentDto } from './payment-batch.dto.js';
import type { FlowFacts } from './payment-batches.repository.js';
import { toSepaText, sepaReferenceProblem } from './sepa/charset.js';
import { SEPA_COUNTRIES } from './sepa/countries.js';
import { fromCents, SEPA_LIMITS, toCents } from './sepa/pain001.js';

/** A BIC (ISO 9362): bank, country, location, optional branch. */
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** How far ahead an execution date may be. */
const MAX_DAYS_AHEAD = 365;

/** A payment as it goes into the batch and the file. */
export interface PreparedPayment {
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
export const compactId = (id: string) => id.replace(/-/g, '').toUpperCase();

/** A request that passed every check, in the file's terms. */
export interface CheckedBatch {
  executionDate: string;
  debtorIban: string;
  debtorBic: string | null;
  payments: PreparedPayment[];
}

/** The flows a request names, lower-cased, each with where it names it. */
export function namedFlows(body: CreateBulkPaymentDto): Array<{ id: string; pointer: string }> {
  return body.payments.flatMap((p, i) =>
    ((p.flow_ids ?? []) as string[]).map((id, j) => ({ id: id.toLowerCase(), pointer: bodyPointer('payments', i, 'flow_ids', j) })),
  );
}

/** Every flow named is the company's: the first one missing is a 404, of another company a 403. */
export function requireOwnedFlows(named: Array<{ id: string; pointer: string }>, flows: ReadonlyMap<string, FlowFacts>, companyId: string): void {
  for (const { id, pointer } of named) {
    const flow = flows.get(id);
    if (!flow) throw ApiError.notFound('Flow', pointer);
    if (flow.companyId !== companyId.toLowerCase()) throw ApiError.forbidden('This API key has no access to this flow.', pointer);
  }
}

/** The request's values checked against the paying account and the flows it names: every problem at once (422). */
export function checkBatch(body: CreateBulkPaymentDto, account: Account, flows: ReadonlyMap<string, FlowFacts>): CheckedBatch {
  const problems: ErrorItem[] = [];
  const today = todayInRome();
  const executionDate = body.requested_execution_date ?? today;
  if (body.requested_execution_date !== undefined) {
    if (executionDate < today) {
      problems.push(errorItem('unprocessable_entity', `requested_execution_date must be today (${today}) or later.`, '/requested_execution_date'));
    } else if (executionDate > addDays(today, MAX_DAYS_AHEAD)) {
      problems.push(errorItem('unprocessable_entity', `requested_execution_date must be within ${MAX_DAYS_AHEAD} days of today.`, '/requested_execution_date'));
    }
  }
  const iban = debtorIban(account, problems);
  const debtorBic = body.debtor_bic ? body.debtor_bic.replace(/\s+/g, '').toUpperCase() : null;
  if (debtorBic !== null && !BIC.test(debtorBic)) {
    problems.push(errorItem('unprocessable_entity', 'debtor_bic must be a BIC of 8 or 11 letters and digits (BPMOIT22 or BPMOIT22XXX).', '/debtor_bic'));
  }
  const payments = preparePayments(body, flows, problems);
  if (problems.length > 0) throw new ApiError(422, problems);
  return { executionDate, debtorIban: iban!, debtorBic, payments };
}

/** The paying account's IBAN, or a problem: it needs a valid one, and EUR (or no currency set). */
function debtorIban(account: Account, problems: ErrorItem[]): string | null {
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

/** Flow ids must be uuids written as strings: anything else is malformed (400), each pointed at. */
export function rejectMalformedFlowIds(body: CreateBulkPaymentDto): void {
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
