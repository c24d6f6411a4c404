import type { EntityManager } from 'typeorm';
import { compareAmounts } from '../common/money/money.js';
import type { FlowsRepository } from './flows.repository.js';

// Callers hold the lock of the flow's document (DocumentsRepository.lock), which serialises every change to its flows.

/** How far a flow's reconciliations pay it. */
export interface Coverage {
  reconciled: boolean;
  /** The sum of the reconciliations' amounts: what the linked transactions allocate to the flow. */
  paid: string;
  /** Reconciled, and the allocations reach the flow's amount. */
  covered: boolean;
  /** Date of the latest reconciled transaction. */
  lastDate: string | null;
}

/** Whether allocations of `paid` cover a flow of `amount` (a flow with no reconciliation is never covered). */
export function covers(reconciled: boolean, paid: string, amount: string): boolean {
  return reconciled && compareAmounts(paid, amount) >= 0;
}

export async function coverageOf(flows: FlowsRepository, manager: EntityManager, flowId: string): Promise<Coverage> {
  const { reconciled, paid, amount, lastDate } = await flows.allocated(manager, flowId);
  return { reconciled, paid, covered: covers(reconciled, paid, amount), lastDate };
}

/**
 * Brings a flow in line with its reconciliations after a link was added or removed: its paid_amount becomes the sum of
 * their amounts; a covered flow is PAID on the latest reconciled transaction's date; a flow that was covered and no
 * longer is returns to TO_PAY. A flow never covered keeps the status it was given by hand.
 */
export async function settleCoverage(flows: FlowsRepository, manager: EntityManager, flowId: string, before: Coverage): Promise<void> {
  const after = await coverageOf(flows, manager, flowId);
  const status = after.covered
    ? { paymentStatus: 'PAID' as const, paymentDate: after.lastDate }
    : before.covered
      ? { paymentStatus: 'TO_PAY' as const, paymentDate: null }
      : {};
  await flows.settle(manager, flowId, { paidAmount: after.paid, ...status });
}
