import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Account } from './account.entity.js';

export const accountList = defineList({
  alias: 'a',
  filters: { id: { column: 'a.id', type: 'uuid' } },
  sorts: { created_at: { column: 'a.createdAt', type: 'datetime' } },
  defaultSort: 'created_at',
});

/** The SQL of bank accounts: the company's pages, and one account that tells 404 from 403. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, accountList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: Account[]; cursor: string | null }> {
    const base = this.db.getRepository(Account).createQueryBuilder('a').where('a.companyId = :companyId', { companyId });
    return fetchPage(base, accountList, query);
  }

  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(companyId: string, id: string): Promise<Account> {
    return findOwned(this.db.getRepository(Account), companyId, id, 'Account');
  }
}
