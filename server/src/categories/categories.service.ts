import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { ApiError } from '../common/errors/api-error.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import type { CategoryDto, CreateCategoryDto, CreateSubcategoryDto, SubcategoryDto, UpdateCategoryDto, UpdateSubcategoryDto } from './category.dto.js';
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

export const presentCategory = (category: Category): CategoryDto => ({ id: category.id, name: category.name });

export const presentSubcategory = (subcategory: Category): SubcategoryDto => ({
  id: subcategory.id,
  name: subcategory.name,
  category_id: subcategory.parentId as string,
});

/** PostgreSQL's foreign_key_violation: the database refused to delete a row that others still reference. */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The company's two-level chart of categories: top-level categories, and subcategories that each belong to one of
 * them (both are rows of `categories`, a subcategory has a parent). Documents and transactions carry one of each.
 * A category or subcategory in use by a document or a transaction cannot be deleted (409 category_in_use); deleting a
 * category deletes its subcategories with it.
 */
@Injectable()
export class CategoriesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(companyId: string, params: QueryParams): Promise<Page<CategoryDto>> {
    const query = parseListQuery(params, categoryList);
    const base = this.db.getRepository(Category).createQueryBuilder('cat').where('cat.companyId = :companyId', { companyId }).andWhere('cat.parentId IS NULL');
    const { rows, cursor } = await fetchPage(base, categoryList, query);
    return page(rows.map(presentCategory), cursor, query.pageSize);
  }

  async get(companyId: string, id: string): Promise<CategoryDto> {
    return presentCategory(await findCategory(this.db.manager, companyId, id));
  }

  async create(companyId: string, body: CreateCategoryDto): Promise<CategoryDto> {
    const repository = this.db.getRepository(Category);
    return presentCategory(await repository.save(repository.create({ companyId, parentId: null, name: body.name })));
  }

  async update(companyId: string, id: string, body: UpdateCategoryDto): Promise<CategoryDto> {
    const category = await findCategory(this.db.manager, companyId, id);
    await this.db.getRepository(Category).update({ companyId: category.companyId, id: category.id }, { name: body.name });
    return presentCategory({ ...category, name: body.name });
  }

  async delete(companyId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const category = await findCategory(manager, companyId, id);
      await deleteUnused(manager, category, 'category');
    });
  }

  async listSubcategories(companyId: string, params: QueryParams): Promise<Page<SubcategoryDto>> {
    const query = parseListQuery(params, subcategoryList);
    const base = this.db
      .getRepository(Category)
      .createQueryBuilder('sub')
      .where('sub.companyId = :companyId', { companyId })
      .andWhere('sub.parentId IS NOT NULL');
    const { rows, cursor } = await fetchPage(base, subcategoryList, query);
    return page(rows.map(presentSubcategory), cursor, query.pageSize);
  }

  async getSubcategory(companyId: string, id: string): Promise<SubcategoryDto> {
    return presentSubcategory(await findSubcategory(this.db.manager, companyId, id));
  }

  async createSubcategory(companyId: string, body: CreateSubcategoryDto): Promise<SubcategoryDto> {
    const parent = await findOwned(this.db.getRepository(Category), companyId, body.category_id, 'Category', '/category_id');
    if (parent.parentId !== null) {
      throw ApiError.of('unprocessable_entity', 'category_id names a subcategory; a subcategory belongs to a top-level category.', '/category_id');
    }
    const repository = this.db.getRepository(Category);
    return presentSubcategory(await repository.save(repository.create({ companyId, parentId: parent.id, name: body.name })));
  }

  async updateSubcategory(companyId: string, id: string, body: UpdateSubcategoryDto): Promise<SubcategoryDto> {
    const subcategory = await findSubcategory(this.db.manager, companyId, id);
    await this.db.getRepository(Category).update({ companyId: subcategory.companyId, id: subcategory.id }, { name: body.name });
    return presentSubcategory({ ...subcategory, name: body.name });
  }

  async deleteSubcategory(companyId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const subcategory = await findSubcategory(manager, companyId, id);
      await deleteUnused(manager, subcategory, 'subcategory');
    });
  }
}

/** A top-level category of the company: a subcategory's id is not one (404), another company's is a 403. */
async function findCategory(manager: EntityManager, companyId: string, id: string): Promise<Category> {
  const category = await findOwned(manager.getRepository(Category), companyId, id, 'Category');
  if (category.parentId !== null) throw ApiError.notFound('Category');
  return category;
}

async function findSubcategory(manager: EntityManager, companyId: string, id: string): Promise<Category> {
  const subcategory = await findOwned(manager.getRepository(Category), companyId, id, 'Subcategory');
  if (subcategory.parentId === null) throw ApiError.notFound('Subcategory');
  return subcategory;
}

/**
 * Deletes a category (with its subcategories) or a subcategory unless a document or a transaction uses it. The rows
 * are locked first, so a document or transaction being given one of them meanwhile waits for the outcome (its
 * foreign-key check locks the row it points at) and the count is exact; the database refuses the delete anyway.
 */
async function deleteUnused(manager: EntityManager, category: Category, what: 'category' | 'subcategory'): Promise<void> {
  const locked: Array<{ id: string }> = await manager.query(
    'SELECT id FROM categories WHERE company_id = $1 AND (id = $2 OR parent_id = $2) ORDER BY id FOR UPDATE',
    [category.companyId, category.id],
  );
  const ids = locked.map((row) => row.id);
  // A concurrent delete got there first.
  if (!ids.includes(category.id)) throw ApiError.notFound(what === 'category' ? 'Category' : 'Subcategory');
  const [usage]: Array<{ documents: number; transactions: number }> = await manager.query(
    `SELECT (SELECT count(*) FROM documents
              WHERE company_id = $1 AND (category_id = ANY($2::uuid[]) OR subcategory_id = ANY($2::uuid[])))::int AS documents,
            (SELECT count(*) FROM transactions
              WHERE company_id = $1 AND (category_id = ANY($2::uuid[]) OR subcategory_id = ANY($2::uuid[])))::int AS transactions`,
    [category.companyId, ids],
  );
  if (usage.documents > 0 || usage.transactions > 0) throw inUse(what, usage);
  try {
    await manager.getRepository(Category).delete({ companyId: category.companyId, id: category.id });
  } catch (error) {
    if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw inUse(what, null);
    throw error;
  }
}

function inUse(what: 'category' | 'subcategory', usage: { documents: number; transactions: number } | null): ApiError {
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const users = usage ? `${count(usage.documents, 'document')} and ${count(usage.transactions, 'transaction')}` : 'documents or transactions';
  const subcategories = what === 'category' ? ' (or one of its subcategories)' : '';
  return ApiError.of('category_in_use', `The ${what}${subcategories} is used by ${users}; give them another ${what} (or none) before deleting it.`);
}
