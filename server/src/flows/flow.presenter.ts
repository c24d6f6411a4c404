import { money, type Money } from '../common/money/money.js';
import type { FlowDto } from './flow.dto.js';
import type { Flow } from './flow.entity.js';
import { instant } from '../common/time/instant.js';

export function presentFlow(flow: Flow): FlowDto {
  return {
    id: flow.id,
    document_id: flow.documentId,
    amount: money(flow.amount, flow.currency) as Money,
    paid_amount: money(flow.paidAmount, flow.currency) as Money,
    payment_status: flow.paymentStatus,
    payment_method: flow.paymentMethod,
    expected_payment_date: flow.expectedPaymentDate,
    payment_date: flow.paymentDate,
    created_at: instant(flow.createdAt),
  };
}
