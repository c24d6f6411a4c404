import type { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { EventsService } from '../common/events/events.service.js';
import { DocumentsService } from '../documents/documents.service.js';
import { SectionalsService } from '../sectionals/sectionals.service.js';
import { ReconciliationsService } from './reconciliations.service.js';

/**
 * Reconciles new bank transactions with the e-invoices whose `reconciliation_identifier` their description carries
 * (compared without regard to case), through the same rules as POST /reconciliations: each pair is linked only if the
 * transaction goes the flow's way and shares its currency, and allocates what remains of either; the invoice's open
 * flows are taken in order of due date until the transaction is used up. Each link is its own transaction with its
 * `document.updated` event. Returns how many links were made.
 */
export async function reconcileByIdentifier(db: DataSource, companyId: string, transactionIds: readonly string[]): Promise<number> {
  if (!transactionIds.length) return 0;
  const pairs: Array<{ transaction_id: string; flow_id: string }> = await db.query(
    `SELECT t.id AS transaction_id, f.id AS flow_id
       FROM transactions t
       JOIN invoices i ON i.company_id = t.company_id AND i.reconciliation_identifier IS NOT NULL
                      AND strpos(upper(t.description), upper(i.reconciliation_identifier)) > 0
       JOIN flows f ON f.document_id = i.document_id AND f.payment_status = 'TO_PAY'
      WHERE t.company_id = $1 AND t.id = ANY($2::uuid[])
      ORDER BY t.date, t.id, f.expected_payment_date NULLS LAST, f.created_at, f.id`,
    [companyId, transactionIds],
  );
  const reconciliations = new ReconciliationsService(db, new DocumentsService(db, new EventsService(), new SectionalsService(db)));
  let made = 0;
  for (const pair of pairs) {
    try {
      await reconciliations.create(companyId, { flow_id: pair.flow_id, transaction_id: pair.transaction_id });
      made++;
    } catch (error) {
      // Not this pair: the transaction goes the other way, is in another currency, or one side is used up.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return made;
}
