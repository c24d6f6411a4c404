import type { EntityManager } from 'typeorm';
import { compareAmounts } from '../common/money/money.js';
import { flowsComeIn } from '../documents/document.enums.js';
import { ReconciliationsRepository, type AllocationRows } from './reconciliations.repository.js';

/**
 * The rules that must hold between a company's transactions, reconciliations, flows and documents whatever the order
 * in which requests came in, checked by the reconciliation tests after every step, by the demo's tests and by the
 * benchmarks. Each violation is one line naming the row and the rule broken.
 *
 * - a transaction's reconciliations allocate at most its amount, each more than zero, in the currency of both sides,
 *   and link a flow going the transaction's way;
 * - a flow's paid_amount is the sum of its reconciliations' amounts, at most its amount; a flow they cover is PAID,
 *   and, unless `paidByHand` allows a status set by hand on a flow they never covered, a PAID flow is covered;
 * - a document's document.updated events, in the order recorded, carry versions 2, 3, … up to the document's version
 *   (one event per change, for documents that started at version 1 without events), each at the instant of its
 *   updated_at, strictly later than the one before.
 */
export async function reconciliationViolations(manager: EntityManager, companyId: string, options: { paidByHand: boolean }): Promise<string[]> {
  return violationsOf(await new ReconciliationsRepository(manager.connection).allocationRows(manager, companyId), options);
}

/** The violations the rows show (reconciliationViolations). */
function violationsOf({ transactions, links, flows, documents }: AllocationRows, options: { paidByHand: boolean }): string[] {
  const violations: string[] = [];
  for (const t of transactions) {
    if (compareAmounts(t.allocated, t.amount) > 0) violations.push(`transaction ${t.id}: reconciliations allocate ${t.allocated} of its ${t.amount}`);
  }

  for (const r of links) {
    if (compareAmounts(r.amount, '0') <= 0) violations.push(`reconciliation ${r.id}: allocates ${r.amount}`);
    if (r.currency !== r.flow_currency || r.currency !== r.transaction_currency) violations.push(`reconciliation ${r.id}: currencies differ`);
    const expected = flowsComeIn({ direction: r.direction, type: r.document_type }) ? 'CREDIT' : 'DEBIT';
    if (r.type !== expected) violations.push(`reconciliation ${r.id}: a ${r.type} transaction pays a flow of an ${r.direction} ${r.document_type}`);
  }

  for (const f of flows) {
    const covered = f.links > 0 && compareAmounts(f.allocated, f.amount) >= 0;
    if (compareAmounts(f.paid_amount, f.allocated) !== 0)
      violations.push(`flow ${f.id}: paid_amount ${f.paid_amount}, reconciliations allocate ${f.allocated}`);
    if (compareAmounts(f.allocated, f.amount) > 0) violations.push(`flow ${f.id}: reconciliations allocate ${f.allocated} of its ${f.amount}`);
    if (covered && f.payment_status !== 'PAID') violations.push(`flow ${f.id}: allocations cover its ${f.amount} yet it is ${f.payment_status}`);
    if (!covered && f.payment_status === 'PAID' && !options.paidByHand) violations.push(`flow ${f.id}: PAID with ${f.allocated} of ${f.amount} allocated`);
  }

  for (const d of documents) {
    const versions = d.events.map((e) => e.version);
    if (versions.length !== d.version - 1 || versions.some((version, i) => version !== i + 2)) {
      violations.push(`document ${d.id}: version ${d.version}, events carry versions [${versions.join(', ')}]`);
    }
    d.events.forEach((e, i) => {
      if (Date.parse(e.created_at) !== Date.parse(e.updated_at))
        violations.push(`document ${d.id}: event of version ${e.version} recorded at ${e.created_at}, not at ${e.updated_at}`);
      if (i > 0 && Date.parse(e.updated_at) <= Date.parse(d.events[i - 1].updated_at))
        violations.push(`document ${d.id}: updated_at goes back at version ${e.version}`);
    });
  }
  return violations;
}
