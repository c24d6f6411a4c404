import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CreateProductDto, ProductDto, UpdateProductDto } from './product.dto.js';
import { productList } from './products.repository.js';
import { ProductsService } from './products.service.js';

@ApiTags('Products')
@ApiCompanyParam()
@Controller('companies/:company_id/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @RequirePermission('products:read')
  @ApiOperation({ operationId: 'listProducts', summary: 'List products', description: "Lists the company's products and services." })
  @ApiList(productList, ProductDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.products.list(companyId, query);
  }

  @Post()
  @RequirePermission('products:write')
  @ApiOperation({
    operationId: 'createProduct',
    summary: 'Create a product',
    description:
      'Adds a product or service with the defaults an invoice line takes from it. A `vat_percentage` of 0 needs a `tax_exemption` (a FatturaPA Natura code), any other rate refuses one. A code another product of the company has is refused with 409 `product_exists`, which names it.',
  })
  @ApiBody({ type: CreateProductDto })
  @ApiCreatedResponse({ type: ProductDto, description: 'Created.' })
  @ApiErrors(400, 403, 'product_exists', 413, 415, 422, ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Body() body: CreateProductDto) {
    return this.products.create(companyId, body);
  }

  @Get(':id')
  @RequirePermission('products:read')
  @ApiOperation({ operationId: 'getProduct', summary: 'Get a product' })
  @ApiIdParam('id', 'Product id.')
  @ApiOkResponse({ type: ProductDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string) {
    return this.products.get(companyId, id);
  }

  @Patch(':id')
  @RequirePermission('products:write')
  @ApiOperation({
    operationId: 'updateProduct',
    summary: 'Update a product',
    description:
      'Changes the members present in the body; null clears `unit_of_measure` or `tax_exemption`. The rate rule is checked on the result: setting `vat_percentage` to 0 needs a `tax_exemption` (already there or in the same body), and moving a 0% product to another rate needs `tax_exemption: null` in the same body. Invoices already made keep their lines.',
  })
  @ApiIdParam('id', 'Product id.')
  @ApiBody({ type: UpdateProductDto })
  @ApiOkResponse({ type: ProductDto })
  @ApiErrors(400, 403, 404, 'product_exists', 413, 415, 422, ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateProductDto) {
    return this.products.update(companyId, id, body);
  }

  @Delete(':id')
  @RequirePermission('products:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteProduct',
    summary: 'Delete a product',
    description: 'Deletes a product. Invoices made from it keep their lines: a line copies what it takes from the product.',
  })
  @ApiIdParam('id', 'Product id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  async delete(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.products.delete(companyId, id);
  }
}
