import type { EntityManager } from 'typeorm';
import { Flow } from './flow.entity.js';

/** How far a flow's reconciled transactions pay it. */
export interface Coverage {
  reconciled: boolean;
  covered: boolean;
  /** Date of the latest reconciled transaction. */
  lastDate: string | null;
}

export async function coverageOf(manager: EntityManager, flowId: string): Promise<Coverage> {
  const [row] = await manager.query(
    `SELECT count(r.id) > 0 AS reconciled, coalesce(sum(t.amount), 0) >= f.amount AS covered, max(t.date)::text AS last_date
       FROM flows f
       LEFT JOIN reconciliations r ON r.flow_id = f.id
       LEFT JOIN transactions t ON t.id = r.transaction_id
      WHERE f.id = $1
      GROUP BY f.id, f.amount`,
    [flowId],
  );
  return { reconciled: row.reconciled, covered: row.reconciled && row.covered, lastDate: row.last_date };
}

/**
 * Brings a flow's payment status in line with its reconciliations after a change that may move its coverage (a link
 * added or removed, its amount changed). A covered flow is PAID on the latest reconciled transaction's date; a flow
 * that was covered and no longer is returns to TO_PAY. A flow never covered keeps the status it was given by hand.
 */
export async function settleCoverage(manager: EntityManager, flowId: string, before: Coverage): Promise<void> {
  const after = await coverageOf(manager, flowId);
  if (after.covered) {
    await manager.update(Flow, { id: flowId }, { paymentStatus: 'PAID', paymentDate: after.lastDate });
  } else if (before.covered) {
    await manager.update(Flow, { id: flowId }, { paymentStatus: 'TO_PAY', paymentDate: null });
  }
}

/** Locks the flow row: coverage changes of one flow happen one at a time. */
export async function lockFlow(manager: EntityManager, flowId: string): Promise<void> {
  await manager.query('SELECT 1 FROM flows WHERE id = $1 FOR UPDATE', [flowId]);
}
