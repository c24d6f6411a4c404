import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { groupBy } from '../common/database/group-by.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Company } from './company.entity.js';
import { Subscription } from './subscription.entity.js';

export const companyList = defineList({
  alias: 'c',
  defaultSort: 'created_at',
  internalFields: { created_at: { column: 'c.createdAt', type: 'datetime' } },
  expansions: ['subscriptions'],
});

/** What the operator gives a new company. */
export type NewCompany = Pick<Company, 'name' | 'vatNumber' | 'country' | 'fiscalRegime'> & Partial<Pick<Company, 'taxNumber'>>;

/** The SQL of companies: a page of those an integrator is granted, their subscriptions, and the operator's writes. */
@Injectable()
export class CompaniesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page among the companies `companyIds` names (at least one). */
  @GenerateSql({ params: [[DummyValue.COMPANY_ID], parseListQuery({}, companyList)] })
  page(companyIds: readonly string[], query: ListQuery): Promise<{ rows: Company[]; cursor: string | null }> {
    const base = this.db
      .getRepository(Company)
      .createQueryBuilder('c')
      .where('c.id IN (:...granted)', { granted: [...companyIds] });
    return fetchPage(base, companyList, query);
  }

  /** Each company's subscriptions, newest first. */
  @GenerateSql({ params: [[DummyValue.COMPANY_ID]] })
  async subscriptionsOf(companyIds: readonly string[]): Promise<Map<string, Subscription[]>> {
    if (companyIds.length === 0) return new Map();
    const rows = await this.db
      .getRepository(Subscription)
      .createQueryBuilder('s')
      .where('s.companyId IN (:...companyIds)', { companyIds: [...companyIds] })
      .orderBy('s.createdAt', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getMany();
    return groupBy(rows, (row) => row.companyId);
  }

  @GenerateSql({ params: [{ name: 'Rossi S.r.l.', vatNumber: 'IT01234567897', country: 'IT', fiscalRegime: 'RF01' }] })
  create(company: NewCompany): Promise<Company> {
    return this.db.getRepository(Company).save(company);
  }

  /** Sets (or, with null, clears) the company's own codice fiscale; the company, or null when there is none. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, 'VRDGPP75C12F205K'] })
  async setTaxNumber(id: string, taxNumber: string | null): Promise<Company | null> {
    const updated = await this.db.getRepository(Company).update({ id }, { taxNumber });
    return updated.affected ? this.db.getRepository(Company).findOneBy({ id }) : null;
  }

  @GenerateSql({ params: [DummyValue.COMPANY_ID] })
  exists(id: string): Promise<boolean> {
    return this.db.getRepository(Company).existsBy({ id });
  }

  /** The company (one the caller knows exists: the request's). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID] })
  get(manager: EntityManager, id: string): Promise<Company> {
    return manager.getRepository(Company).findOneByOrFail({ id });
  }
}
