import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CompanyDto } from './company.dto.js';
import { companyList } from './companies.repository.js';
import { CompaniesService } from './companies.service.js';
import { AnyKey } from '../common/auth/permissions.js';

@ApiTags('Companies')
@Controller('companies')
export class CompaniesController {
  constructor(private readonly companies: CompaniesService) {}

  @Get()
  @AnyKey()
  @ApiOperation({
    operationId: 'listCompanies',
    summary: 'List companies',
    description:
      "Lists the companies the API key's integrator has been granted access to. Every other call acts inside one of them. Every valid key may call it, whatever its permissions: it never answers 403.",
  })
  @ApiList(companyList, CompanyDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', ...COMMON_ERRORS)
  list(@CurrentAuth() auth: AuthContext, @Query() query: QueryParams) {
    return this.companies.list(auth, query);
  }
}
