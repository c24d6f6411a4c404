import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { money } from '../common/money/money.js';
import type { AccountDto } from './account.dto.js';
import { Account } from './account.entity.js';

export const accountList = defineList({
  alias: 'a',
  filters: { id: { column: 'a.id', type: 'uuid' } },
  sorts: { created_at: { column: 'a.createdAt', type: 'datetime' } },
  defaultSort: 'created_at',
});

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

@Injectable()
export class AccountsService {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  async list(companyId: string, params: QueryParams): Promise<Page<AccountDto>> {
    const query = parseListQuery(params, accountList);
    const base = this.accounts.createQueryBuilder('a').where('a.companyId = :companyId', { companyId });
    const { rows, cursor } = await fetchPage(base, accountList, query);
    return page(rows.map(presentAccount), cursor, query.pageSize);
  }

  async get(companyId: string, id: string): Promise<AccountDto> {
    return presentAccount(await findOwned(this.accounts, companyId, id, 'Account'));
  }
}
