import { money } from '../common/money/money.js';
import type { AccountDto } from './account.dto.js';
import type { Account } from './account.entity.js';
import { instant, instantOrNull } from '../common/time/instant.js';

export function presentAccount(account: Account): AccountDto {
  return {
    id: account.id,
    nickname: account.nickname,
    currency: account.currency,
    current_balance: money(account.currentBalance, account.currency),
    available_balance: money(account.availableBalance, account.currency),
    credit_limit: money(account.creditLimit, account.currency),
    balance_date: instantOrNull(account.balanceDate),
    created_at: instant(account.createdAt),
  };
}
