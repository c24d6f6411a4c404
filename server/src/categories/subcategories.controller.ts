import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { subcategoryList } from './categories.repository.js';
import { CategoriesService } from './categories.service.js';
import { CreateSubcategoryDto, SubcategoryDto, UpdateSubcategoryDto } from './category.dto.js';
import { RequirePermission } from '../common/auth/permissions.js';

@ApiTags('Categories')
@ApiCompanyParam()
@Controller('companies/:company_id/subcategories')
export class SubcategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @RequirePermission('categories:read')
  @ApiOperation({
    operationId: 'listSubcategories',
    summary: 'List subcategories',
    description: "Lists the company's subcategories, by name; `filter[category_id]` gives those of one category.",
  })
  @ApiList(subcategoryList, SubcategoryDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.categories.listSubcategories(companyId, query);
  }

  @Post()
  @RequirePermission('categories:write')
  @ApiOperation({ operationId: 'createSubcategory', summary: 'Create a subcategory', description: 'Creates a subcategory under a top-level category.' })
  @ApiBody({ type: CreateSubcategoryDto })
  @ApiCreatedResponse({ type: SubcategoryDto, description: 'Created.' })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Body() body: CreateSubcategoryDto) {
    return this.categories.createSubcategory(companyId, body);
  }

  @Get(':id')
  @RequirePermission('categories:read')
  @ApiOperation({ operationId: 'getSubcategory', summary: 'Get a subcategory', description: 'Reads a subcategory; a top-level category id is a 404 here.' })
  @ApiIdParam('id', 'Subcategory id.')
  @ApiOkResponse({ type: SubcategoryDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.categories.getSubcategory(companyId, id, query);
  }

  @Patch(':id')
  @RequirePermission('categories:write')
  @ApiOperation({
    operationId: 'updateSubcategory',
    summary: 'Rename a subcategory',
    description:
      'Changes the name of a subcategory. A subcategory stays under its category: to move it, create one under the other category and re-assign its documents and transactions. No `document.updated` webhook is sent.',
  })
  @ApiIdParam('id', 'Subcategory id.')
  @ApiBody({ type: UpdateSubcategoryDto })
  @ApiOkResponse({ type: SubcategoryDto })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateSubcategoryDto) {
    return this.categories.updateSubcategory(companyId, id, body);
  }

  @Delete(':id')
  @RequirePermission('categories:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteSubcategory',
    summary: 'Delete a subcategory',
    description: 'Deletes a subcategory. Refused with 409 `category_in_use` while a document or a transaction uses it.',
  })
  @ApiIdParam('id', 'Subcategory id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 403, 404, 'category_in_use', ...COMMON_ERRORS)
  async delete(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.categories.deleteSubcategory(companyId, id);
  }
}
