import { BASE_PATH } from '../config/api-version.js';
import type { PaymentBatchDto, PaymentBatchPaymentDto } from './payment-batch.dto.js';
import type { PaymentBatch } from './payment-batch.entity.js';
import type { BatchPayments } from './payment-batches.repository.js';
import { instant } from '../common/time/instant.js';

/** Each batch's payments, in request order, with their flow ids. */
export function presentPayments({ payments, flowIds }: BatchPayments): Map<string, PaymentBatchPaymentDto[]> {
  const byBatch = new Map<string, PaymentBatchPaymentDto[]>();
  for (const p of payments) {
    const list = byBatch.get(p.batchId) ?? [];
    list.push({
      id: p.id,
      end_to_end_id: p.endToEndId,
      payee_name: p.payeeName,
      iban: p.iban,
      amount: { amount: p.amount, currency: p.currency.trim() },
      remittance_information: p.remittanceInformation,
      flow_ids: flowIds.get(p.id) ?? [],
    });
    byBatch.set(p.batchId, list);
  }
  return byBatch;
}

/** A batch; `payments` when they were loaded (the `payments` expansion, the file, a new batch), else null. */
export function presentPaymentBatch(b: PaymentBatch, payments: ReadonlyMap<string, PaymentBatchPaymentDto[]> | null): PaymentBatchDto {
  return {
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
    created_at: instant(b.createdAt),
    updated_at: instant(b.updatedAt),
  };
}
