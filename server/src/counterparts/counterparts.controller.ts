import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CounterpartDto, CounterpartSearchResultDto, CreateCounterpartDto, UpdateCounterpartDto } from './counterpart.dto.js';
import { counterpartList } from './counterparts.repository.js';
import { CounterpartsService } from './counterparts.service.js';
import { RequirePermission } from '../common/auth/permissions.js';

@ApiTags('Counterparts')
@Controller()
export class CounterpartsController {
  constructor(private readonly counterparts: CounterpartsService) {}

  @Get('companies/:company_id/counterparts')
  @RequirePermission('counterparts:read')
  @ApiCompanyParam()
  @ApiOperation({ operationId: 'listCounterparts', summary: 'List counterparts', description: "Lists the company's customers and suppliers." })
  @ApiList(counterpartList, CounterpartDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, 404, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.counterparts.list(companyId, query);
  }

  @Post('companies/:company_id/counterparts')
  @RequirePermission('counterparts:write')
  @ApiCompanyParam()
  @ApiOperation({
    operationId: 'createCounterpart',
    summary: 'Create a counterpart',
    description:
      "Adds a customer or supplier. With `country` IT the Italian identifiers are checked: the partita IVA's check digit, the codice fiscale's check character, a five-digit CAP. A VAT number another counterpart of the company already has is refused with 409 `counterpart_exists`, which names it.",
  })
  @ApiBody({ type: CreateCounterpartDto })
  @ApiCreatedResponse({ type: CounterpartDto, description: 'Created.' })
  @ApiErrors(400, 403, 'counterpart_exists', 413, 415, 422, ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Body() body: CreateCounterpartDto) {
    return this.counterparts.create(companyId, body);
  }

  @Patch('companies/:company_id/counterparts/:id')
  @RequirePermission('counterparts:write')
  @ApiCompanyParam()
  @ApiOperation({
    operationId: 'updateCounterpart',
    summary: 'Update a counterpart',
    description:
      'Changes the members present in the body; null clears one. The members sent are checked, and a new `country` re-checks the tax number and postal code: changing it to IT can make a stored tax number invalid (422 at `/tax_number`). Documents show the counterpart as it is now; no `document.updated` webhook is sent.',
  })
  @ApiIdParam('id', 'Counterpart id.')
  @ApiBody({ type: UpdateCounterpartDto })
  @ApiOkResponse({ type: CounterpartDto })
  @ApiErrors(400, 403, 404, 'counterpart_exists', 413, 415, 422, ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateCounterpartDto) {
    return this.counterparts.update(companyId, id, body);
  }

  @Get('companies/:company_id/counterparts/:id')
  @RequirePermission('counterparts:read')
  @ApiCompanyParam()
  @ApiOperation({ operationId: 'getCounterpart', summary: 'Get a counterpart' })
  @ApiIdParam('id', 'Counterpart id.')
  @ApiOkResponse({ type: CounterpartDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.counterparts.get(companyId, id, query);
  }

  @Get('counterparts/search')
  @RequirePermission('counterparts:read')
  @ApiOperation({
    operationId: 'searchCounterparts',
    summary: 'Look up a company by VAT number',
    description:
      'Finds company data (name, address, tax number) for a VAT number in a third-party business registry, to prefill a counterpart. ' +
      'Eleven digits alone are read as an Italian partita IVA (IT prefix).',
  })
  @ApiQuery({
    name: 'vat_number',
    required: true,
    description: 'VAT number, e.g. IT01234567890.',
    schema: { type: 'string', minLength: 1, example: 'IT01234567890' },
  })
  @ApiOkResponse({ type: CounterpartSearchResultDto })
  @ApiErrors('bad_request', 'invalid_query_parameter', 402, 'insufficient_permission', 404, ...COMMON_ERRORS)
  search(@Query() query: QueryParams) {
    return this.counterparts.search(query);
  }
}
