import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CategoriesService, categoryList } from './categories.service.js';
import { CategoryDto } from './category.dto.js';

@ApiTags('Categories')
@ApiCompanyParam()
@Controller('companies/:company_id/categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @ApiOperation({ operationId: 'listCategories', summary: 'List categories', description: 'Lists the company\'s categories (top level).' })
  @ApiList(categoryList, CategoryDto)
  @ApiErrors(400, 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.categories.list(companyId, query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getCategory', summary: 'Get a category' })
  @ApiIdParam('id', 'Category id.')
  @ApiOkResponse({ type: CategoryDto })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.categories.get(companyId, id, query);
  }
}
