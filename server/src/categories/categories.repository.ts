import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Category } from './category.entity.js';

export const categoryList = defineList({
  alias: 'cat',
  filters: { id: { column: 'cat.id', type: 'uuid' }, name: { column: 'cat.name', type: 'string' } },
  sorts: { name: { column: 'cat.name', type: 'string' } },
  defaultSort: 'name',
});

export const subcategoryList = defineList({
  alias: 'sub',
  filters: {
    id: { column: 'sub.id', type: 'uuid' },
    category_id: { column: 'sub.parentId', type: 'uuid' },
    name: { column: 'sub.name', type: 'string' },
  },
  sorts: { name: { column: 'sub.name', type: 'string' } },
  defaultSort: 'name',
});

/** How many documents and transactions use a set of categories. */
export interface CategoryUsage {
  documents: number;
  transactions: number;
}

/**
 * The SQL of the chart of categories (both levels are rows of `categories`; a subcategory has a parent): pages, reads
 * that tell 404 from 403, writes, and what a delete checks under its locks.
 */
@Injectable()
export class CategoriesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the company's top-level categories. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, categoryList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: Category[]; cursor: string | null }> {
    const base = this.db.getRepository(Category).createQueryBuilder('cat').where('cat.companyId = :companyId', { companyId }).andWhere('cat.parentId IS NULL');
    return fetchPage(base, categoryList, query);
  }

  /** One page of the company's subcategories. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, subcategoryList)] })
  subcategoryPage(companyId: string, query: ListQuery): Promise<{ rows: Category[]; cursor: string | null }> {
    const base = this.db
      .getRepository(Category)
      .createQueryBuilder('sub')
      .where('sub.companyId = :companyId', { companyId })
      .andWhere('sub.parentId IS NOT NULL');
    return fetchPage(base, subcategoryList, query);
  }

  /** A category or subcategory of the company: 404, or 403 when it is another company's (named `what` in the error). */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID, 'Category'] })
  findOwned(manager: EntityManager, companyId: string, id: string, what: string, pointer?: string): Promise<Category> {
    return findOwned(manager.getRepository(Category), companyId, id, what, pointer);
  }

  /** A new category (`parentId` null) or subcategory. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, null, DummyValue.STRING] })
  create(companyId: string, parentId: string | null, name: string): Promise<Category> {
    const repository = this.db.getRepository(Category);
    return repository.save(repository.create({ companyId, parentId, name }));
  }

  @GenerateSql({ params: [{ companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID }, DummyValue.STRING] })
  async rename(category: Pick<Category, 'companyId' | 'id'>, name: string): Promise<void> {
    await this.db.getRepository(Category).update({ companyId: category.companyId, id: category.id }, { name });
  }

  /**
   * Locks a category with its subcategories (or a subcategory), in id order, and returns the ids still there. A
   * document or transaction being given one of them meanwhile waits for the outcome (its foreign-key check locks the
   * row it points at).
   */
  @GenerateSql({ params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID }] })
  async lockWithSubcategories(manager: EntityManager, category: Pick<Category, 'companyId' | 'id'>): Promise<string[]> {
    const locked: Array<{ id: string }> = await manager.query(
      'SELECT id FROM categories WHERE company_id = $1 AND (id = $2 OR parent_id = $2) ORDER BY id FOR UPDATE',
      [category.companyId, category.id],
    );
    return locked.map((row) => row.id);
  }

  /** The documents and transactions that use any of the categories `ids`. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, [DummyValue.UUID]] })
  async usage(manager: EntityManager, companyId: string, ids: readonly string[]): Promise<CategoryUsage> {
    const [usage]: CategoryUsage[] = await manager.query(
      `SELECT (SELECT count(*) FROM documents
                WHERE company_id = $1 AND (category_id = ANY($2::uuid[]) OR subcategory_id = ANY($2::uuid[])))::int AS documents,
              (SELECT count(*) FROM transactions
                WHERE company_id = $1 AND (category_id = ANY($2::uuid[]) OR subcategory_id = ANY($2::uuid[])))::int AS transactions`,
      [companyId, ids],
    );
    return usage;
  }

  /** Deletes a category (its subcategories go with it: ON DELETE CASCADE) or a subcategory. */
  @GenerateSql({ params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID }] })
  async delete(manager: EntityManager, category: Pick<Category, 'companyId' | 'id'>): Promise<void> {
    await manager.getRepository(Category).delete({ companyId: category.companyId, id: category.id });
  }
}
