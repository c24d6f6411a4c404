import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import type { AccountDto } from './account.dto.js';
import { presentAccount } from './account.presenter.js';
import { accountList, AccountsRepository } from './accounts.repository.js';

@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsRepository,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<AccountDto>> {
    const query = parseListQuery(params, accountList);
    const { rows, cursor } = await this.accounts.page(companyId, query);
    return page(rows.map(presentAccount), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<AccountDto> {
    rejectUnknownParams(params, []);
    return presentAccount(await this.accounts.findOwned(this.db.manager, companyId, id));
  }
}
