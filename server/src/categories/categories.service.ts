import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { CategoriesRepository, categoryList, subcategoryList, type CategoryUsage } from './categories.repository.js';
import type { CategoryDto, CreateCategoryDto, CreateSubcategoryDto, SubcategoryDto, UpdateCategoryDto, UpdateSubcategoryDto } from './category.dto.js';
import type { Category } from './category.entity.js';
import { presentCategory, presentSubcategory } from './category.presenter.js';

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
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly categories: CategoriesRepository,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<CategoryDto>> {
    const query = parseListQuery(params, categoryList);
    const { rows, cursor } = await this.categories.page(companyId, query);
    return page(rows.map(presentCategory), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<CategoryDto> {
    rejectUnknownParams(params, []);
    return presentCategory(await this.findCategory(this.db.manager, companyId, id));
  }

  async create(companyId: string, body: CreateCategoryDto): Promise<CategoryDto> {
    return presentCategory(await this.categories.create(companyId, null, body.name));
  }

  async update(companyId: string, id: string, body: UpdateCategoryDto): Promise<CategoryDto> {
    const category = await this.findCategory(this.db.manager, companyId, id);
    await this.categories.rename(category, body.name);
    return presentCategory({ ...category, name: body.name });
  }

  async delete(companyId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const category = await this.findCategory(manager, companyId, id);
      await this.deleteUnused(manager, category, 'category');
    });
  }

  async listSubcategories(companyId: string, params: QueryParams): Promise<Page<SubcategoryDto>> {
    const query = parseListQuery(params, subcategoryList);
    const { rows, cursor } = await this.categories.subcategoryPage(companyId, query);
    return page(rows.map(presentSubcategory), cursor, query.pageSize);
  }

  async getSubcategory(companyId: string, id: string, params: QueryParams): Promise<SubcategoryDto> {
    rejectUnknownParams(params, []);
    return presentSubcategory(await this.findSubcategory(this.db.manager, companyId, id));
  }

  async createSubcategory(companyId: string, body: CreateSubcategoryDto): Promise<SubcategoryDto> {
    const parent = await this.categories.findOwned(this.db.manager, companyId, body.category_id, 'Category', '/category_id');
    if (parent.parentId !== null) {
      throw ApiError.of('unprocessable_entity', 'category_id names a subcategory; a subcategory belongs to a top-level category.', '/category_id');
    }
    return presentSubcategory(await this.categories.create(companyId, parent.id, body.name));
  }

  async updateSubcategory(companyId: string, id: string, body: UpdateSubcategoryDto): Promise<SubcategoryDto> {
    const subcategory = await this.findSubcategory(this.db.manager, companyId, id);
    await this.categories.rename(subcategory, body.name);
    return presentSubcategory({ ...subcategory, name: body.name });
  }

  async deleteSubcategory(companyId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const subcategory = await this.findSubcategory(manager, companyId, id);
      await this.deleteUnused(manager, subcategory, 'subcategory');
    });
  }

  /** A top-level category of the company: a subcategory's id is not one (404), another company's is a 403. */
  private async findCategory(manager: EntityManager, companyId: string, id: string): Promise<Category> {
    const category = await this.categories.findOwned(manager, companyId, id, 'Category');
    if (category.parentId !== null) throw ApiError.notFound('Category');
    return category;
  }

  private async findSubcategory(manager: EntityManager, companyId: string, id: string): Promise<Category> {
    const subcategory = await this.categories.findOwned(manager, companyId, id, 'Subcategory');
    if (subcategory.parentId === null) throw ApiError.notFound('Subcategory');
    return subcategory;
  }

  /**
   * Deletes a category (with its subcategories) or a subcategory unless a document or a transaction uses it. The rows
   * are locked first, so a document or transaction being given one of them meanwhile waits for the outcome and the
   * count is exact; the database refuses the delete anyway.
   */
  private async deleteUnused(manager: EntityManager, category: Category, what: 'category' | 'subcategory'): Promise<void> {
    const ids = await this.categories.lockWithSubcategories(manager, category);
    // A concurrent delete got there first.
    if (!ids.includes(category.id)) throw ApiError.notFound(what === 'category' ? 'Category' : 'Subcategory');
    const usage = await this.categories.usage(manager, category.companyId, ids);
    if (usage.documents > 0 || usage.transactions > 0) throw inUse(what, usage);
    try {
      await this.categories.delete(manager, category);
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw inUse(what, null);
      throw error;
    }
  }
}

function inUse(what: 'category' | 'subcategory', usage: CategoryUsage | null): ApiError {
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const users = usage ? `${count(usage.documents, 'document')} and ${count(usage.transactions, 'transaction')}` : 'documents or transactions';
  const subcategories = what === 'category' ? ' (or one of its subcategories)' : '';
  return ApiError.of('category_in_use', `The ${what}${subcategories} is used by ${users}; give them another ${what} (or none) before deleting it.`);
}
