import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
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

  /** The company's account: 404, or 403 when it is another company's (`pointer` names where the request named it). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(manager: EntityManager, companyId: string, id: string, pointer?: string): Promise<Account> {
    return findOwned(manager.getRepository(Account), companyId, id, 'Account', pointer);
  }
}
