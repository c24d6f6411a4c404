import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BASE_PATH } from '../config/api-version.js';
import { CompanyId } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { InvoiceShareDto, ShareInvoiceDto } from './share.dto.js';
import { shareList, SharesService } from './shares.service.js';

@ApiTags('Documents')
@ApiCompanyParam()
@Controller('companies/:company_id/documents/:document_id')
export class SharesController {
  constructor(private readonly shares: SharesService) {}

  @Post('share-invoice')
  @RequirePermission('documents:write')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'shareInvoice',
    summary: 'E-mail a courtesy copy of the invoice',
    description:
      'Sends the courtesy copy (copia di cortesia) of an issued e-invoice by e-mail: your message (or an Italian default naming the document type and number), then the invoice for a person to read (parties, lines, VAT summary, total, due dates), with the XML file attached and a signed link to it (valid 30 days unless configured otherwise). Replies go to `reply_to`. Answers 202 once the message is accepted for sending, not delivered: read the share back (the `Location` header) for its status (`queued`, `sent`, `failed` with the reason). Temporary refusals by the mail server are retried for hours; permanent ones fail at once. An invoice the SDI has not taken yet (DRAFT, or CREATED until it is SENT) or has DISCARDED is a 422 `invalid_state`; a document that is not an e-invoice is a 404.',
  })
  @ApiIdParam('document_id', 'Document id.')
  @ApiBody({ type: ShareInvoiceDto })
  @ApiAcceptedResponse({
    type: InvoiceShareDto,
    description: 'Accepted for sending.',
    headers: { location: { description: 'The share, to read back for its status.', required: true, schema: { type: 'string' } } },
  })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  async share(
    @CompanyId() companyId: string,
    @Param('document_id') documentId: string,
    @Body() body: ShareInvoiceDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InvoiceShareDto> {
    const share = await this.shares.share(companyId, documentId, body, `${request.protocol}://${request.host}${BASE_PATH}`);
    void reply.header('location', `${BASE_PATH}/companies/${companyId}/documents/${share.document_id}/shares/${share.id}`);
    return share;
  }

  @Get('shares')
  @RequirePermission('documents:read')
  @ApiOperation({
    operationId: 'listInvoiceShares',
    summary: "List an invoice's shares",
    description: 'The courtesy copies sent (or being sent) for this document, newest first, with their status.',
  })
  @ApiIdParam('document_id', 'Document id.')
  @ApiList(shareList, InvoiceShareDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, 404, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Query() query: QueryParams) {
    return this.shares.list(companyId, documentId, query);
  }

  @Get('shares/:id')
  @RequirePermission('documents:read')
  @ApiOperation({ operationId: 'getInvoiceShare', summary: 'Get a share', description: 'One courtesy-copy e-mail and its status.' })
  @ApiIdParam('document_id', 'Document id.')
  @ApiIdParam('id', 'Share id.')
  @ApiOkResponse({ type: InvoiceShareDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('document_id') documentId: string, @Param('id') id: string) {
    return this.shares.get(companyId, documentId, id);
  }
}
