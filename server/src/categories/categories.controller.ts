import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { categoryList } from './categories.repository.js';
import { CategoriesService } from './categories.service.js';
import { CategoryDto, CreateCategoryDto, UpdateCategoryDto } from './category.dto.js';
import { RequirePermission } from '../common/auth/permissions.js';

@ApiTags('Categories')
@ApiCompanyParam()
@Controller('companies/:company_id/categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @RequirePermission('categories:read')
  @ApiOperation({
    operationId: 'listCategories',
    summary: 'List categories',
    description: "Lists the company's top-level categories; their subcategories are listed by `listSubcategories`.",
  })
  @ApiList(categoryList, CategoryDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.categories.list(companyId, query);
  }

  @Post()
  @RequirePermission('categories:write')
  @ApiOperation({ operationId: 'createCategory', summary: 'Create a category', description: 'Creates a top-level category.' })
  @ApiBody({ type: CreateCategoryDto })
  @ApiCreatedResponse({ type: CategoryDto, description: 'Created.' })
  @ApiErrors(400, 403, 413, 415, 422, ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Body() body: CreateCategoryDto) {
    return this.categories.create(companyId, body);
  }

  @Get(':id')
  @RequirePermission('categories:read')
  @ApiOperation({
    operationId: 'getCategory',
    summary: 'Get a category',
    description: 'Reads a top-level category; a subcategory id is a 404 here (use `getSubcategory`).',
  })
  @ApiIdParam('id', 'Category id.')
  @ApiOkResponse({ type: CategoryDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.categories.get(companyId, id, query);
  }

  @Patch(':id')
  @RequirePermission('categories:write')
  @ApiOperation({
    operationId: 'updateCategory',
    summary: 'Rename a category',
    description: 'Changes the name of a top-level category. Documents and transactions keep it; no `document.updated` webhook is sent.',
  })
  @ApiIdParam('id', 'Category id.')
  @ApiBody({ type: UpdateCategoryDto })
  @ApiOkResponse({ type: CategoryDto })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateCategoryDto) {
    return this.categories.update(companyId, id, body);
  }

  @Delete(':id')
  @RequirePermission('categories:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCategory',
    summary: 'Delete a category',
    description:
      'Deletes a top-level category together with its subcategories. Refused with 409 `category_in_use` while a document or a transaction uses the category or one of its subcategories: give them another category (or none) first.',
  })
  @ApiIdParam('id', 'Category id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 403, 404, 'category_in_use', ...COMMON_ERRORS)
  async delete(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.categories.delete(companyId, id);
  }
}
