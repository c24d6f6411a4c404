import { presentCategory } from '../categories/category.presenter.js';
import type { Category } from '../categories/category.entity.js';
import { groupBy } from '../common/database/group-by.js';
import { money, type Money } from '../common/money/money.js';
import { presentFlow } from '../flows/flow.presenter.js';
import type { ReconciliationDto } from './reconciliation.dto.js';
import { presentReconciliation } from './reconciliation.presenter.js';
import type { TransactionDto } from './transaction.dto.js';
import type { Transaction } from './transaction.entity.js';
import type { TransactionRelations } from './transactions.repository.js';
import { instant, instantOrNull } from '../common/time/instant.js';

export interface TransactionExpansions {
  categories?: Map<string, Category>;
  subcategories?: Map<string, Category>;
  reconciliations?: Map<string, ReconciliationDto[]>;
}

export function presentTransaction(t: Transaction, expanded: TransactionExpansions = {}): TransactionDto {
  const category = (id: string | null, map?: Map<string, Category>) => {
    const found = id && map ? map.get(id) : undefined;
    return found ? presentCategory(found) : null;
  };
  return {
    id: t.id,
    account_id: t.accountId,
    type: t.type,
    amount: money(t.amount, t.currency) as Money,
    booking_date_time: instantOrNull(t.bookingDateTime),
    date: t.date,
    value_date: t.valueDate,
    description: t.description,
    clean_description: t.cleanDescription,
    counterpart_name: t.counterpartName,
    created_at: instant(t.createdAt),
    category_id: t.categoryId,
    category: category(t.categoryId, expanded.categories),
    subcategory_id: t.subcategoryId,
    subcategory: category(t.subcategoryId, expanded.subcategories),
    reconciliations: expanded.reconciliations ? (expanded.reconciliations.get(t.id) ?? []) : null,
  };
}

/** Transactions with the rows their expansions show (TransactionsRepository.relations). */
export function presentTransactions(transactions: Transaction[], relations: TransactionRelations): TransactionDto[] {
  const flows = relations.flows && new Map([...relations.flows].map(([id, f]) => [id, presentFlow(f)]));
  const reconciliations =
    relations.reconciliations &&
    new Map(
      [...groupBy(relations.reconciliations, (r) => r.transactionId)].map(([transactionId, group]) => [
        transactionId,
        group.map((r) => presentReconciliation(r, flows)),
      ]),
    );
  return transactions.map((t) => presentTransaction(t, { categories: relations.categories, subcategories: relations.subcategories, reconciliations }));
}
