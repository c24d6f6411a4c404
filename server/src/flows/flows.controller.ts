import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { FlowDto, UpdateFlowDto } from './flow.dto.js';
import { flowList, FlowsService } from './flows.service.js';

@ApiTags('Flows')
@ApiCompanyParam()
@ApiIdParam('document_id', 'Document id.')
@Controller('companies/:company_id/documents/:document_id/flows')
export class FlowsController {
  constructor(private readonly flows: FlowsService) {}

  @Get()
  @ApiOperation({ operationId: 'listFlows', summary: 'List the flows of a document', description: 'Lists the payment flows (instalments) of a document, by expected payment date.' })
  @ApiList(flowList, FlowDto)
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Query() query: QueryParams) {
    return this.flows.list(companyId, documentId, query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getFlow', summary: 'Get a flow' })
  @ApiIdParam('id', 'Flow id.')
  @ApiOkResponse({ type: FlowDto })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.flows.get(companyId, documentId, id, query);
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateFlow',
    summary: 'Update a flow',
    description:
      'Changes a flow\'s amount, dates, payment method or payment status. A PAID flow has a payment_date (today when not given); a TO_PAY flow has none; a reconciled flow stays PAID until its reconciliations are deleted. Sends a `document.updated` webhook.',
  })
  @ApiIdParam('id', 'Flow id.')
  @ApiBody({ type: UpdateFlowDto })
  @ApiOkResponse({ type: FlowDto })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  update(
    @CompanyId() companyId: string,
    @Param('document_id') documentId: string,
    @Param('id') id: string,
    @Body() body: UpdateFlowDto,
  ) {
    return this.flows.update(companyId, documentId, id, body);
  }
}
