import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import { ApiQueryOf, defineQuery, queryParam, type QueryOf } from '../common/http/query-spec.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { TransactionDto, UpdateTransactionDto } from './transaction.dto.js';
import { transactionList } from './transactions.repository.js';
import { TransactionsService } from './transactions.service.js';
import { RequirePermission } from '../common/auth/permissions.js';

/** The query of a single read: the members to expand. */
export const transactionQuery = defineQuery({ expand: queryParam.expand(transactionList.expansions) });

@ApiTags('Transactions')
@ApiCompanyParam()
@Controller('companies/:company_id/transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Get()
  @RequirePermission('transactions:read')
  @ApiOperation({
    operationId: 'listTransactions',
    summary: 'List bank transactions',
    description: "Lists the bank movements of all the company's accounts, latest date first unless sorted.",
  })
  @ApiList(transactionList, TransactionDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.transactions.list(companyId, query);
  }

  @Get(':id')
  @RequirePermission('transactions:read')
  @ApiOperation({ operationId: 'getTransaction', summary: 'Get a bank transaction' })
  @ApiIdParam('id', 'Transaction id.')
  @ApiQueryOf(transactionQuery)
  @ApiOkResponse({ type: TransactionDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query(transactionQuery) query: QueryOf<typeof transactionQuery>) {
    return this.transactions.get(companyId, id, query.expand);
  }

  @Patch(':id')
  @RequirePermission('transactions:write')
  @ApiOperation({
    operationId: 'updateTransaction',
    summary: 'Update a bank transaction',
    description:
      "Sets or clears the transaction's category and subcategory; members left out stay as they are. A `subcategory_id` must belong to the `category_id` sent with it, else to the transaction's current category (422 `subcategory_mismatch`). A new `category_id` sent alone keeps the subcategory when it belongs to the new category and clears it otherwise; clearing the category clears the subcategory. The bank's data (amount, dates, descriptions) can't be changed. Answers with the whole transaction, every member expanded. No webhook is sent.",
  })
  @ApiIdParam('id', 'Transaction id.')
  @ApiBody({ type: UpdateTransactionDto })
  @ApiOkResponse({ type: TransactionDto })
  @ApiErrors(400, 403, 404, 413, 415, 422, 'subcategory_mismatch', ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateTransactionDto) {
    return this.transactions.update(companyId, id, body);
  }
}
