import { randomUUID } from 'node:crypto';
import type { TransactionType } from '../transactions/transaction.entity.js';
import type { Row } from '../common/database/bulk-insert.js';
import { CATEGORY_TREE, type CategoryName, type CategoryPath } from './catalogue.js';
import { atMinute, formatCents } from './calendar.js';
import { generateAccountNumber, italianIban } from './italian-identifiers.js';
import { BANKS } from './italian-places.js';
import type { Random } from './random.js';

/** The company's chart of categories and its bank accounts, which every document and transaction refers to. */

export interface CategoryRef {
  categoryId: string;
  subcategoryId: string;
}

export type CategoryRefs = (path: CategoryPath) => CategoryRef;

export function buildCategories(companyId: string, createdAt: string): { rows: Row[]; refs: CategoryRefs } {
  const rows: Row[] = [];
  const ids = new Map<string, string>();
  for (const [name, subcategories] of Object.entries(CATEGORY_TREE) as [CategoryName, readonly string[]][]) {
    const id = randomUUID();
    ids.set(name, id);
    rows.push({ id, company_id: companyId, parent_id: null, name, created_at: createdAt });
    for (const subcategory of subcategories) {
      const subId = randomUUID();
      ids.set(`${name}/${subcategory}`, subId);
      rows.push({ id: subId, company_id: companyId, parent_id: id, name: subcategory, created_at: createdAt });
    }
  }
  const refs: CategoryRefs = ([category, subcategory]) => ({
    categoryId: ids.get(category)!,
    subcategoryId: ids.get(`${category}/${subcategory}`)!,
  });
  return { rows, refs };
}

/** The current account everything goes through, the one card takings settle on, and a savings account for taxes. */
export interface DemoAccounts {
  main: string;
  pos: string;
  savings: string;
}

const ACCOUNT_PLANS = [
  { role: 'main', nickname: 'Conto corrente principale', creditLimitCents: 1_000_000 },
  { role: 'pos', nickname: 'Conto incassi POS', creditLimitCents: 0 },
  { role: 'savings', nickname: 'Conto accantonamento imposte', creditLimitCents: 0 },
] as const;

export type AccountRow = {
  id: string;
  company_id: string;
  nickname: string;
  iban: string;
  currency: string;
  credit_limit: string;
  created_at: string;
};

/** Accounts opened on `openedOn` a minute apart, so they list in this order. */
export function buildAccounts(companyId: string, random: Random, openedOn: string): { rows: AccountRow[]; accounts: DemoAccounts } {
  const rows = ACCOUNT_PLANS.map((plan, index): AccountRow => ({
    id: randomUUID(),
    company_id: companyId,
    nickname: plan.nickname,
    iban: italianIban(BANKS[index].abi, BANKS[index].cab, generateAccountNumber(random)),
    currency: 'EUR',
    credit_limit: formatCents(plan.creditLimitCents),
    created_at: atMinute(openedOn, 9 * 60 + index),
  }));
  return { rows, accounts: { main: rows[0].id, pos: rows[1].id, savings: rows[2].id } };
}

/** Sums the movements of each account while they are generated, to give the accounts consistent balances. */
export class AccountBalances {
  private readonly net = new Map<string, number>();

  add(accountId: string, type: TransactionType, cents: number): void {
    this.net.set(accountId, (this.net.get(accountId) ?? 0) + (type === 'CREDIT' ? cents : -cents));
  }

  /** Net movement of the account over the generated period, in cents. */
  of(accountId: string): number {
    return this.net.get(accountId) ?? 0;
  }
}
