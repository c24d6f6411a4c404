import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CreateSectionalDto, SectionalDto, UpdateSectionalDto } from './sectional.dto.js';
import { sectionalList } from './sectionals.repository.js';
import { SectionalsService } from './sectionals.service.js';

const FORMAT =
  'A number is `{prefix}{progressive zero-padded to minimum_digits}{suffix}`: with prefix `FV/`, suffix `/2026` and 4 digits the series numbers `FV/0001/2026`, `FV/0002/2026`, … A sectional numbers one year; numbering restarts each year with a new sectional. An e-invoice takes its number from one with `sectional_id` on createInvoice.';

@ApiTags('Sectionals')
@ApiCompanyParam()
@Controller('companies/:company_id/sectionals')
export class SectionalsController {
  constructor(private readonly sectionals: SectionalsService) {}

  @Get()
  @RequirePermission('documents:read')
  @ApiOperation({
    operationId: 'listSectionals',
    summary: 'List sectionals',
    description: `Lists the company's numbering series (sezionali), latest year first. ${FORMAT}`,
  })
  @ApiList(sectionalList, SectionalDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.sectionals.list(companyId, query);
  }

  @Post()
  @RequirePermission('documents:write')
  @ApiOperation({
    operationId: 'createSectional',
    summary: 'Create a sectional',
    description: `Creates a numbering series. ${FORMAT} Another sectional of the company with the same year, prefix and suffix is refused with 409 \`sectional_exists\`, which names it.`,
  })
  @ApiBody({ type: CreateSectionalDto })
  @ApiCreatedResponse({ type: SectionalDto, description: 'Created.' })
  @ApiErrors(400, 403, 'sectional_exists', 413, 415, 422, ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Body() body: CreateSectionalDto) {
    return this.sectionals.create(companyId, body);
  }

  @Get(':id')
  @RequirePermission('documents:read')
  @ApiOperation({
    operationId: 'getSectional',
    summary: 'Get a sectional',
    description: 'Reads a numbering series, with the last progressive it issued and its next number.',
  })
  @ApiIdParam('id', 'Sectional id.')
  @ApiOkResponse({ type: SectionalDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.sectionals.get(companyId, id, query);
  }

  @Patch(':id')
  @RequirePermission('documents:write')
  @ApiOperation({
    operationId: 'updateSectional',
    summary: 'Update a sectional',
    description:
      'Changes any of `year`, `prefix`, `suffix` and `minimum_digits`. Once the series has issued a number, its year, prefix and suffix are fixed (422 `sectional_in_use`): the numbers on its documents must stay what the series says. `minimum_digits` may always change; it pads only the numbers still to come. The same year, prefix and suffix as another sectional of the company is a 409 `sectional_exists`.',
  })
  @ApiIdParam('id', 'Sectional id.')
  @ApiBody({ type: UpdateSectionalDto })
  @ApiOkResponse({ type: SectionalDto })
  @ApiErrors(400, 403, 404, 'sectional_exists', 413, 415, 'sectional_in_use', ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateSectionalDto) {
    return this.sectionals.update(companyId, id, body);
  }
}
