import { money, type Money } from '../common/money/money.js';
import type { FlowDto } from '../flows/flow.dto.js';
import type { TransactionDto } from './transaction.dto.js';
import type { ReconciliationDto } from './reconciliation.dto.js';
import type { Reconciliation } from './reconciliation.entity.js';
import { instant } from '../common/time/instant.js';

export function presentReconciliation(r: Reconciliation, flows?: Map<string, FlowDto>, transactions?: Map<string, TransactionDto>): ReconciliationDto {
  return {
    id: r.id,
    flow_id: r.flowId,
    transaction_id: r.transactionId,
    amount: money(r.amount, r.currency) as Money,
    flow: flows?.get(r.flowId) ?? null,
    transaction: transactions?.get(r.transactionId) ?? null,
    created_at: instant(r.createdAt),
  };
}
