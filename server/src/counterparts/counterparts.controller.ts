import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CounterpartDto, CounterpartSearchResultDto } from './counterpart.dto.js';
import { counterpartList, CounterpartsService } from './counterparts.service.js';

@ApiTags('Counterparts')
@Controller()
export class CounterpartsController {
  constructor(private readonly counterparts: CounterpartsService) {}

  @Get('companies/:company_id/counterparts')
  @ApiCompanyParam()
  @ApiOperation({ operationId: 'listCounterparts', summary: 'List counterparts', description: 'Lists the company\'s customers and suppliers.' })
  @ApiList(counterpartList, CounterpartDto)
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.counterparts.list(companyId, query);
  }

  @Get('companies/:company_id/counterparts/:id')
  @ApiCompanyParam()
  @ApiOperation({ operationId: 'getCounterpart', summary: 'Get a counterpart' })
  @ApiIdParam('id', 'Counterpart id.')
  @ApiOkResponse({ type: CounterpartDto })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.counterparts.get(companyId, id, query);
  }

  @Get('counterparts/search')
  @ApiOperation({
    operationId: 'searchCounterparts',
    summary: 'Look up a company by VAT number',
    description:
      'Finds company data (name, address, tax number) for a VAT number in a third-party business registry, to prefill a counterpart. ' +
      'Eleven digits alone are read as an Italian partita IVA (IT prefix).',
  })
  @ApiQuery({ name: 'vat_number', required: true, description: 'VAT number, e.g. IT01234567890.', schema: { type: 'string', example: 'IT01234567890' } })
  @ApiOkResponse({ type: CounterpartSearchResultDto })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  search(@Query() query: QueryParams) {
    return this.counterparts.search(query);
  }
}
