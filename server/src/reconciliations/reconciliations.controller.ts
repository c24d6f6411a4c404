import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import { ApiQueryOf, defineQuery, queryParam, type QueryOf } from '../common/http/query-spec.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CreateReconciliationDto, ReconciliationDto } from '../transactions/reconciliation.dto.js';
import { reconciliationList } from './reconciliations.repository.js';
import { ReconciliationsService } from './reconciliations.service.js';
import { RequirePermission } from '../common/auth/permissions.js';

/** The query of a single read: the members to expand. */
export const reconciliationQuery = defineQuery({ expand: queryParam.expand(reconciliationList.expansions) });

@ApiTags('Reconciliations')
@ApiCompanyParam()
@Controller('companies/:company_id/reconciliations')
export class ReconciliationsController {
  constructor(private readonly reconciliations: ReconciliationsService) {}

  @Get()
  @RequirePermission('reconciliations:read')
  @ApiOperation({
    operationId: 'listReconciliations',
    summary: 'List reconciliations',
    description: 'Lists the links between flows and bank transactions, newest first unless sorted.',
  })
  @ApiList(reconciliationList, ReconciliationDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.reconciliations.list(companyId, query);
  }

  @Post()
  @RequirePermission('reconciliations:write')
  @ApiOperation({
    operationId: 'createReconciliation',
    summary: 'Reconcile a flow with a transaction',
    description:
      "Links a flow and a bank transaction of the company in the same currency and going the flow's way (CREDIT for an issued document's flow, DEBIT for a received one's, the reverse for credit notes), and allocates part of the transaction to the flow: `amount` if given, else what remains of the transaction or of the flow, whichever is less. A transaction's reconciliations never allocate more than its amount, nor a flow's more than the flow's. When the flow's `paid_amount` reaches its amount, the flow becomes PAID on the latest transaction date. Answers with the reconciliation, flow and transaction expanded, and sends a `document.updated` webhook.",
  })
  @ApiBody({ type: CreateReconciliationDto })
  @ApiCreatedResponse({ type: ReconciliationDto, description: 'Created.' })
  @ApiErrors(
    400,
    403,
    404,
    413,
    415,
    422,
    'reconciliation_exists',
    'currency_mismatch',
    'direction_mismatch',
    'transaction_fully_reconciled',
    'flow_fully_reconciled',
    'amount_exceeds_remaining',
    ...COMMON_ERRORS,
  )
  create(@CompanyId() companyId: string, @Body() body: CreateReconciliationDto) {
    return this.reconciliations.create(companyId, body);
  }

  @Get(':id')
  @RequirePermission('reconciliations:read')
  @ApiOperation({ operationId: 'getReconciliation', summary: 'Get a reconciliation' })
  @ApiIdParam('id', 'Reconciliation id.')
  @ApiQueryOf(reconciliationQuery)
  @ApiOkResponse({ type: ReconciliationDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query(reconciliationQuery) query: QueryOf<typeof reconciliationQuery>) {
    return this.reconciliations.get(companyId, id, query.expand);
  }

  @Delete(':id')
  @RequirePermission('reconciliations:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteReconciliation',
    summary: 'Delete a reconciliation',
    description:
      "Removes the link, giving its amount back to the transaction. If the flow's remaining links no longer pay its whole amount, it returns to TO_PAY. Sends a `document.updated` webhook. A reconciliation already deleted (also by a concurrent request) is a 404, and sends nothing.",
  })
  @ApiIdParam('id', 'Reconciliation id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  async delete(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.reconciliations.delete(companyId, id);
  }
}
