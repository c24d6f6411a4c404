import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import type { CategoryDto } from './category.dto.js';
import { Category } from './category.entity.js';

export const categoryList = defineList({
  alias: 'cat',
  filters: { id: { column: 'cat.id', type: 'uuid' }, name: { column: 'cat.name', type: 'string' } },
  sorts: { name: { column: 'cat.name', type: 'string' } },
  defaultSort: 'name',
});

export const presentCategory = (category: Category): CategoryDto => ({ id: category.id, name: category.name });

/** Categories are the top level; subcategories (rows with a parent) appear only inside documents and transactions. */
@Injectable()
export class CategoriesService {
  constructor(@InjectRepository(Category) private readonly categories: Repository<Category>) {}

  async list(companyId: string, params: QueryParams): Promise<Page<CategoryDto>> {
    const query = parseListQuery(params, categoryList);
    const base = this.categories
      .createQueryBuilder('cat')
      .where('cat.companyId = :companyId', { companyId })
      .andWhere('cat.parentId IS NULL');
    const { rows, cursor } = await fetchPage(base, categoryList, query);
    return page(rows.map(presentCategory), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<CategoryDto> {
    rejectUnknownParams(params, []);
    return presentCategory(await findOwned(this.categories, companyId, id, 'Category'));
  }
}
