import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CreateFlowDto, FlowDto, UpdateFlowDto } from '../flows/flow.dto.js';
import { flowList } from '../flows/flows.repository.js';
import { FlowsService } from './flows.service.js';
import { RequirePermission } from '../common/auth/permissions.js';

@ApiTags('Flows')
@ApiCompanyParam()
@ApiIdParam('document_id', 'Document id.')
@Controller('companies/:company_id/documents/:document_id/flows')
export class FlowsController {
  constructor(private readonly flows: FlowsService) {}

  @Get()
  @RequirePermission('flows:read')
  @ApiOperation({
    operationId: 'listFlows',
    summary: 'List the flows of a document',
    description: 'Lists the payment flows (instalments) of a document, by expected payment date.',
  })
  @ApiList(flowList, FlowDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, 404, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Query() query: QueryParams) {
    return this.flows.list(companyId, documentId, query);
  }

  @Post()
  @RequirePermission('flows:write')
  @ApiOperation({
    operationId: 'createFlow',
    summary: 'Create a flow',
    description:
      "Adds a payment flow (an instalment) to a document: `amount` (more than zero, in the document's currency), and optionally `expected_payment_date` and `payment_method`. The new flow is TO_PAY, with nothing paid. The document's flows together may not exceed its gross amount (amounts carry no sign: a credit note's flows total at most its gross amount too): 422 `flows_exceed_gross_amount`, whose `detail` says how much is left. Flows read from an e-invoice's payment terms (DatiPagamento) are ordinary flows of the document and count towards that total. Sends a `document.updated` webhook and increments the document's version.",
  })
  @ApiBody({ type: CreateFlowDto })
  @ApiCreatedResponse({ type: FlowDto, description: 'Created.' })
  @ApiErrors(400, 403, 404, 413, 415, 422, 'currency_mismatch', 'flows_exceed_gross_amount', ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Body() body: CreateFlowDto) {
    return this.flows.create(companyId, documentId, body);
  }

  @Get(':id')
  @RequirePermission('flows:read')
  @ApiOperation({ operationId: 'getFlow', summary: 'Get a flow' })
  @ApiIdParam('id', 'Flow id.')
  @ApiOkResponse({ type: FlowDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Param('id') id: string) {
    return this.flows.get(companyId, documentId, id);
  }

  @Patch(':id')
  @RequirePermission('flows:write')
  @ApiOperation({
    operationId: 'updateFlow',
    summary: 'Update a flow',
    description:
      "Changes a flow's amount, dates, payment method or payment status. A larger amount may not bring the document's flows above its gross amount (422 `flows_exceed_gross_amount`); a smaller one never below its `paid_amount` (422 `amount_below_reconciled`). A PAID flow has a payment_date (today when not given); a TO_PAY flow has none; a reconciled flow stays PAID until its reconciliations are deleted. Sends a `document.updated` webhook and increments the document's version, unless the values sent are those the flow already has (then nothing changes).",
  })
  @ApiIdParam('id', 'Flow id.')
  @ApiBody({ type: UpdateFlowDto })
  @ApiOkResponse({ type: FlowDto })
  @ApiErrors(400, 403, 404, 413, 415, 422, 'currency_mismatch', 'amount_below_reconciled', 'flows_exceed_gross_amount', 'invalid_state', ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Param('id') id: string, @Body() body: UpdateFlowDto) {
    return this.flows.update(companyId, documentId, id, body);
  }

  @Delete(':id')
  @RequirePermission('flows:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteFlow',
    summary: 'Delete a flow',
    description:
      "Deletes a flow of the document. A reconciled flow is refused with 409 `flow_reconciled`: delete its reconciliations first. Sends a `document.updated` webhook and increments the document's version. A flow already deleted (also by a concurrent request) is a 404, and sends nothing.",
  })
  @ApiIdParam('id', 'Flow id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 403, 404, 'flow_reconciled', ...COMMON_ERRORS)
  async delete(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Param('id') id: string): Promise<void> {
    await this.flows.delete(companyId, documentId, id);
  }
}
