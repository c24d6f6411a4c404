import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Sectional } from './sectional.entity.js';

export const sectionalList = defineList({
  alias: 'sec',
  filters: {
    id: { column: 'sec.id', type: 'uuid' },
    year: { column: 'sec.year', type: 'integer' },
    prefix: { column: 'sec.prefix', type: 'string' },
    suffix: { column: 'sec.suffix', type: 'string' },
  },
  sorts: { year: { column: 'sec.year', type: 'integer' }, created_at: { column: 'sec.createdAt', type: 'datetime' } },
  defaultSort: '-year',
});

/** A series' counter as taking a number left it. */
export interface TakenProgressive {
  year: number;
  last_progressive: number;
  prefix: string;
  suffix: string;
  minimum_digits: number;
  updated_at: Date;
}

/** What names a series: another sectional of the company with the same three is refused (sectionals_company_series). */
export type Series = Pick<Sectional, 'companyId' | 'year' | 'prefix' | 'suffix'>;

const EXAMPLE = { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID, year: 2026, prefix: 'A/', suffix: '', minimumDigits: 3, lastProgressive: 0 };

/** The SQL of numbering series (sezionali): pages, reads that tell 404 from 403, writes, and the counter. */
@Injectable()
export class SectionalsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the company's sectionals. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, sectionalList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: Sectional[]; cursor: string | null }> {
    const base = this.db.getRepository(Sectional).createQueryBuilder('sec').where('sec.companyId = :companyId', { companyId });
    return fetchPage(base, sectionalList, query);
  }

  /** The company's sectional: 404, or 403 when it is another company's (`pointer` names where the request named it). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(manager: EntityManager, companyId: string, id: string, pointer?: string): Promise<Sectional> {
    return findOwned(manager.getRepository(Sectional), companyId, id, 'Sectional', pointer);
  }

  /** The sectional read again under a row lock (the one a number's taking waits on), for an update. */
  @GenerateSql({ params: [DummyValue.MANAGER, EXAMPLE] })
  lockForUpdate(manager: EntityManager, sectional: Pick<Sectional, 'companyId' | 'id'>): Promise<Sectional> {
    return manager.getRepository(Sectional).findOneOrFail({ where: { companyId: sectional.companyId, id: sectional.id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Inserts a new sectional, or writes an existing one's members. */
  @GenerateSql({ name: 'new', params: [DummyValue.MANAGER, { ...EXAMPLE, id: undefined }] }, { name: 'existing', params: [DummyValue.MANAGER, EXAMPLE] })
  save(manager: EntityManager, sectional: Partial<Sectional>): Promise<Sectional> {
    const repository = manager.getRepository(Sectional);
    return repository.save(repository.create(sectional));
  }

  /** The id of the company's sectional numbering a series, if one does. */
  @GenerateSql({ params: [EXAMPLE] })
  async idOfSeries(series: Series): Promise<string | null> {
    const existing = await this.db.getRepository(Sectional).findOne({
      where: { companyId: series.companyId, year: series.year, prefix: series.prefix, suffix: series.suffix },
      select: { id: true },
    });
    return existing?.id ?? null;
  }

  /** Moves the counter to the next number unless it has reached `limit`; the row stays locked until the transaction ends. */
  @GenerateSql({ params: [DummyValue.MANAGER, EXAMPLE, 999_999] })
  async takeNext(manager: EntityManager, sectional: Pick<Sectional, 'companyId' | 'id'>, limit: number): Promise<TakenProgressive | null> {
    const [rows]: [TakenProgressive[], number] = await manager.query(
      `UPDATE sectionals SET last_progressive = last_progressive + 1, updated_at = now()
        WHERE company_id = $1 AND id = $2 AND last_progressive < $3
        RETURNING year, last_progressive, prefix, suffix, minimum_digits, updated_at`,
      [sectional.companyId, sectional.id, limit],
    );
    return rows[0] ?? null;
  }

  /** Moves the counter back by one if `progressive` is its last number; false when it is not. */
  @GenerateSql({ params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, sectionalId: DummyValue.UUID, progressive: 1 }] })
  async giveBackLast(manager: EntityManager, number: { companyId: string; sectionalId: string; progressive: number }): Promise<boolean> {
    const [rows]: [Array<{ id: string }>, number] = await manager.query(
      `UPDATE sectionals SET last_progressive = last_progressive - 1, updated_at = now()
        WHERE company_id = $1 AND id = $2 AND last_progressive = $3
        RETURNING id`,
      [number.companyId, number.sectionalId, number.progressive],
    );
    return rows.length > 0;
  }

  /** The company's sectional by id (one a document of the company points at). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  get(manager: EntityManager, companyId: string, id: string): Promise<Sectional> {
    return manager.getRepository(Sectional).findOneByOrFail({ companyId, id });
  }
}
