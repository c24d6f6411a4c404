import { money } from '../common/money/money.js';
import type { AccountDto } from './account.dto.js';
import type { Account } from './account.entity.js';

export function presentAccount(account: Account): AccountDto {
  return {
    id: account.id,
    nickname: account.nickname,
    currency: account.currency,
    current_balance: money(account.currentBalance, account.currency),
    available_balance: money(account.availableBalance, account.currency),
    credit_limit: money(account.creditLimit, account.currency),
    balance_date: account.balanceDate?.toISOString() ?? null,
    created_at: account.createdAt.toISOString(),
  };
}
