import type { DataSource } from 'typeorm';
import { CategoriesRepository } from '../categories/categories.repository.js';
import { ApiError } from '../common/errors/api-error.js';
import { EventsService } from '../common/events/events.service.js';
import { DocumentsRepository } from '../documents/documents.repository.js';
import { DocumentsService } from '../documents/documents.service.js';
import { FlowsRepository } from '../flows/flows.repository.js';
import { SectionalsService } from '../sectionals/sectionals.service.js';
import { TransactionsRepository } from '../transactions/transactions.repository.js';
import { ReconciliationsRepository } from './reconciliations.repository.js';
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
  const repository = new ReconciliationsRepository(db);
  const pairs = await repository.identifiedPairs(db.manager, companyId, transactionIds);
  const events = new EventsService();
  const documents = new DocumentsService(db, new DocumentsRepository(db), new CategoriesRepository(db), events, new SectionalsService(db));
  const reconciliations = new ReconciliationsService(db, repository, new FlowsRepository(db), new TransactionsRepository(db), documents, events);
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
