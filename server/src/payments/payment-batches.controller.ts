import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CompanyId } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiExpand, ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { CreateBulkPaymentDto, PaymentBatchDto } from './payment-batch.dto.js';
import { paymentBatchList } from './payment-batches.repository.js';
import { PaymentBatchesService } from './payment-batches.service.js';

@ApiTags('Payments')
@ApiCompanyParam()
@Controller('companies/:company_id')
export class PaymentBatchesController {
  constructor(private readonly batches: PaymentBatchesService) {}

  @Post('requests/bulk-payment')
  @RequirePermission('payments:write')
  @ApiOperation({
    operationId: 'createBulkPayment',
    summary: 'Request a bulk payment',
    description:
      "Creates a DRAFT payment batch of SEPA credit transfers from one of the company's accounts, and answers with it, its payments and `file_url`: the batch as an ISO 20022 pain.001.001.09 file to upload to the bank. Every IBAN is checked (ISO 13616 check digits, the country's length, a country of the SEPA schemes); amounts are in EUR with at most two decimals; names and remittance texts are transliterated to the SEPA character set. A payment may name the flows it pays: money-out flows of the company, TO_PAY, in EUR, and its amount at most what remains to be paid of them. The request is checked whole: every problem of every payment is reported at once (422), and nothing is created unless all are fine. Flows do not change (and no webhook is sent) until the bank's debit is reconciled with them.",
  })
  @ApiBody({ type: CreateBulkPaymentDto })
  @ApiCreatedResponse({ type: PaymentBatchDto, description: 'Created: the batch with its payments.' })
  @ApiErrors(400, 403, 404, 413, 415, 'invalid_iban', ...COMMON_ERRORS)
  create(@CompanyId() companyId: string, @Body() body: CreateBulkPaymentDto) {
    return this.batches.create(companyId, body);
  }

  @Get('payment-batches')
  @RequirePermission('payments:read')
  @ApiOperation({
    operationId: 'listPaymentBatches',
    summary: 'List payment batches',
    description: 'Lists the payment batches of bulk payment requests, newest first unless sorted.',
  })
  @ApiList(paymentBatchList, PaymentBatchDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.batches.list(companyId, query);
  }

  @Get('payment-batches/:id')
  @RequirePermission('payments:read')
  @ApiOperation({ operationId: 'getPaymentBatch', summary: 'Get a payment batch' })
  @ApiIdParam('id', 'Payment batch id.')
  @ApiExpand(paymentBatchList.expansions)
  @ApiOkResponse({ type: PaymentBatchDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.batches.get(companyId, id, query);
  }

  @Get('payment-batches/:id/file')
  @RequirePermission('payments:read')
  @ApiOperation({
    operationId: 'getPaymentBatchFile',
    summary: 'Download the SEPA credit-transfer file',
    description:
      "The batch as an ISO 20022 `pain.001.001.09` customer credit transfer initiation, profiled as the EPC's SEPA Credit Transfer implementation guidelines ask (service level SEPA, charges SLEV, EUR), UTF-8, to upload to the company's bank. The same batch always gives the same file. Errors are JSON, as everywhere.",
  })
  @ApiIdParam('id', 'Payment batch id.')
  @ApiOkResponse({
    description: 'The pain.001.001.09 file, as an attachment named `<message_id>.xml`.',
    content: { 'application/xml': { schema: { type: 'string' } } },
  })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  async file(
    @CompanyId() companyId: string,
    @Param('id') id: string,
    @Query() query: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { fileName, xml } = await this.batches.file(companyId, id, query);
    reply.header('content-type', 'application/xml; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`);
    return xml;
  }
}
