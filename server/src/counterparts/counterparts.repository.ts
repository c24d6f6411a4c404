import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Counterpart } from './counterpart.entity.js';

export const counterpartList = defineList({
  alias: 'cp',
  filters: {
    vat_number: { column: 'cp.vatNumber', type: 'string', nullable: true },
    tax_number: { column: 'cp.taxNumber', type: 'string', nullable: true },
    company_name: { column: 'cp.companyName', type: 'string', nullable: true },
  },
  sorts: { company_name: { column: 'cp.companyName', type: 'string', nullable: true } },
  defaultSort: 'company_name',
});

const EXAMPLE = { companyId: DummyValue.COMPANY_ID, companyName: 'Rossi S.r.l.', country: 'IT', vatNumber: 'IT01234567897' };

/** The SQL of a company's counterparts (its customers and suppliers): pages, 404/403 reads, writes, the VAT number's owner. */
@Injectable()
export class CounterpartsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the company's counterparts. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, counterpartList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: Counterpart[]; cursor: string | null }> {
    const base = this.db.getRepository(Counterpart).createQueryBuilder('cp').where('cp.companyId = :companyId', { companyId });
    return fetchPage(base, counterpartList, query);
  }

  /** The company's counterpart: 404, or 403 when it is another company's. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(companyId: string, id: string): Promise<Counterpart> {
    return findOwned(this.db.getRepository(Counterpart), companyId, id, 'Counterpart');
  }

  /** A counterpart of the company with every member empty, not stored yet. */
  blank(companyId: string): Counterpart {
    return this.db.getRepository(Counterpart).create({
      companyId,
      companyName: null,
      address: null,
      city: null,
      postalCode: null,
      provinceCode: null,
      country: null,
      taxNumber: null,
      vatNumber: null,
      destinationCode: null,
      pecAddress: null,
    });
  }

  /** The counterpart read again under a row lock, so that concurrent updates of other members are not undone. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID] })
  lockForUpdate(manager: EntityManager, id: string): Promise<Counterpart> {
    return manager.getRepository(Counterpart).findOneOrFail({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Inserts a new counterpart, or writes an existing one's members. */
  @GenerateSql({ name: 'new', params: [DummyValue.MANAGER, EXAMPLE] }, { name: 'existing', params: [DummyValue.MANAGER, { ...EXAMPLE, id: DummyValue.UUID }] })
  save(manager: EntityManager, counterpart: Counterpart): Promise<Counterpart> {
    return manager.getRepository(Counterpart).save(counterpart);
  }

  /** The id of the company's counterpart with this VAT number, if one has it. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, EXAMPLE.vatNumber] })
  async idWithVatNumber(manager: EntityManager, companyId: string, vatNumber: string): Promise<string | null> {
    const existing = await manager.getRepository(Counterpart).findOne({ where: { companyId, vatNumber }, select: { id: true } });
    return existing?.id ?? null;
  }
}
