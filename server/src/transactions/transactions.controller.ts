import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiExpand, ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { TransactionDto } from './transaction.dto.js';
import { transactionList, TransactionsService } from './transactions.service.js';

@ApiTags('Transactions')
@ApiCompanyParam()
@Controller('companies/:company_id/transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Get()
  @ApiOperation({ operationId: 'listTransactions', summary: 'List bank transactions', description: 'Lists the bank movements of all the company\'s accounts, latest date first unless sorted.' })
  @ApiList(transactionList, TransactionDto)
  @ApiErrors(400, 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.transactions.list(companyId, query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getTransaction', summary: 'Get a bank transaction' })
  @ApiIdParam('id', 'Transaction id.')
  @ApiExpand(transactionList.expansions)
  @ApiOkResponse({ type: TransactionDto })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.transactions.get(companyId, id, query);
  }
}
