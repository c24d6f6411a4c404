import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { AccountDto } from './account.dto.js';
import { accountList } from './accounts.repository.js';
import { AccountsService } from './accounts.service.js';
import { RequirePermission } from '../common/auth/permissions.js';

@ApiTags('Accounts')
@ApiCompanyParam()
@Controller('companies/:company_id/accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @RequirePermission('accounts:read')
  @ApiOperation({ operationId: 'listAccounts', summary: 'List bank accounts', description: 'Lists the bank accounts of the company.' })
  @ApiList(accountList, AccountDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.accounts.list(companyId, query);
  }

  @Get(':id')
  @RequirePermission('accounts:read')
  @ApiOperation({ operationId: 'getAccount', summary: 'Get a bank account', description: 'Reads one bank account with its balances.' })
  @ApiIdParam('id', 'Account id.')
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.accounts.get(companyId, id, query);
  }
}
