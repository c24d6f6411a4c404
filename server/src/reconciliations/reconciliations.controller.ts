import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiExpand, ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CreateReconciliationDto, ReconciliationDto } from './reconciliation.dto.js';
import { reconciliationList, ReconciliationsService } from './reconciliations.service.js';

@ApiTags('Reconciliations')
@ApiCompanyParam()
@Controller('companies/:company_id/reconciliations')
export class ReconciliationsController {
  constructor(private readonly reconciliations: ReconciliationsService) {}

  @Get()
  @ApiOperation({ operationId: 'listReconciliations', summary: 'List reconciliations', description: 'Lists the links between flows and bank transactions, newest first unless sorted.' })
  @ApiList(reconciliationList, ReconciliationDto)
  @ApiErrors(400, 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.reconciliations.list(companyId, query);
  }

  @Post()
  @ApiOperation({
    operationId: 'createReconciliation',
    summary: 'Reconcile a flow with a transaction',
    description:
      'Links a flow and a bank transaction of the company in the same currency. When the flow\'s linked transactions cover its amount, the flow becomes PAID on the latest transaction date. Answers with the reconciliation, flow and transaction expanded, and sends a `document.updated` webhook.',
  })
  @ApiBody({ type: CreateReconciliationDto })
  @ApiCreatedResponse({ type: ReconciliationDto, description: 'Created.' })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Body() body: CreateReconciliationDto) {
    return this.reconciliations.create(companyId, body);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getReconciliation', summary: 'Get a reconciliation' })
  @ApiIdParam('id', 'Reconciliation id.')
  @ApiExpand(reconciliationList.expansions)
  @ApiOkResponse({ type: ReconciliationDto })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.reconciliations.get(companyId, id, query);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteReconciliation',
    summary: 'Delete a reconciliation',
    description: 'Removes the link. If the flow\'s remaining links no longer cover its amount, it returns to TO_PAY. Sends a `document.updated` webhook.',
  })
  @ApiIdParam('id', 'Reconciliation id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  async delete(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.reconciliations.delete(companyId, id);
  }
}
