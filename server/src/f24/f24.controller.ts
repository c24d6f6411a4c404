import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompanyId } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiError } from '../common/errors/api-error.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiQueryOf, defineQuery, queryParam, type QueryOf } from '../common/http/query-spec.js';
import { EXAMPLE_PDF, F24AcceptedResponseDto, F24RequestDto } from './f24.dto.js';
import { f24RequestPath } from './f24.presenter.js';
import { F24Service } from './f24.service.js';

/** 1 to 200 printable characters. */
const printable = (raw: string) => raw.length >= 1 && raw.length <= 200 && ![...raw].some((c) => c < ' ' || c === '\u007f');

/** The upload's query: the file's name and the integrator's label, both optional. */
export const f24UploadQuery = defineQuery({
  file_name: queryParam.text(
    {
      schema: { type: 'string', minLength: 1, maxLength: 200 },
      description: 'The name of the file, shown with the request and the document.',
      example: 'F24-marzo-2026.pdf',
    },
    { valid: printable, invalid: 'file_name must be 1 to 200 printable characters.' },
  ),
  label: queryParam.text(
    {
      schema: { type: 'string', minLength: 1, maxLength: 200 },
      description: "Your label for the form, kept as the document's notes.",
      example: 'IVA e ritenute marzo',
    },
    { valid: printable, invalid: 'label must be 1 to 200 printable characters.' },
  ),
});

@ApiTags('Payments')
@ApiCompanyParam()
@Controller('companies/:company_id/requests/f24')
export class F24Controller {
  constructor(private readonly f24: F24Service) {}

  @Post('ocr')
  @HttpCode(202)
  @RequirePermission('payments:f24:write')
  @ApiOperation({
    operationId: 'createF24OcrRequest',
    summary: 'Read an F24 form',
    description:
      "Accepts an F24 (modello F24 ordinario, semplificato or Elide) as the PDF the accountant sent (`application/pdf`), or a scan of it (`image/png`, `image/jpeg`), up to 10 MB, and answers at once 202 with the request id and its `Location`. The worker then reads it: the PDF's text layer, or OCR where a page is a scan; the contributor's codice fiscale (check character), every section (Erario, INPS, Regioni, IMU e altri tributi locali, INAIL, altri enti) with its lines, totals and saldo, the saldo finale and the data di versamento, each total checked against what it adds up. A form that adds up and whose contributor is the company becomes a document of type `F24` with one TO_PAY flow (`TAX_FORM`) of the saldo, due on the payment date (none when the saldo is zero); otherwise the request is FAILED with its reason. Either way an `f24.processed` or `f24.failed` webhook carries the request. The file's kind is judged from its bytes: an empty file is a 422 `empty_file`, something else than a PDF or an image a 422 `not_a_pdf`, an encrypted PDF a 422 `encrypted_pdf`, a larger file a 413. The same file sent again is recognised (`already_uploaded`: the first request's id, nothing read again).",
  })
  @ApiQueryOf(f24UploadQuery)
  @ApiConsumes('application/pdf', 'image/png', 'image/jpeg')
  @ApiBody({
    schema: { type: 'string', format: 'binary' },
    description: 'The F24 file.',
    examples: { pdf: { summary: 'A one-page PDF (not an F24: its request fails, tax_code_unreadable)', value: EXAMPLE_PDF } },
  })
  @ApiAcceptedResponse({
    type: F24AcceptedResponseDto,
    description: 'Accepted: read it at `Location`.',
    headers: { location: { description: 'The request: GET it for its state (getF24Request).', schema: { type: 'string' } } },
  })
  @ApiErrors(400, 'invalid_query_parameter', 403, 404, 413, 415, 'empty_file', 'not_a_pdf', 'encrypted_pdf', ...COMMON_ERRORS)
  async upload(
    @CompanyId() companyId: string,
    @Req() request: FastifyRequest,
    @Query(f24UploadQuery) query: QueryOf<typeof f24UploadQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<F24AcceptedResponseDto> {
    if (!request.headers['content-type']) throw ApiError.of('bad_request', 'The Content-Type header is missing: send the F24 as application/pdf.');
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const accepted = await this.f24.upload(companyId, {
      bytes,
      fileName: query.file_name ?? null,
      label: query.label ?? null,
    });
    reply.header('location', f24RequestPath(companyId, accepted.request_id));
    return { data: accepted };
  }

  @Get(':id')
  @RequirePermission('payments:f24:read')
  @ApiOperation({
    operationId: 'getF24Request',
    summary: 'Get an F24 request',
    description:
      "The request's state: `WAITING_OCR` while the worker has not read the file yet, `PROCESSED` with what was read (`form`: contributor, sections and lines, saldo, payment date) and the document made, or `FAILED` with `failure.reason` and a `detail` to show. Another company's request is a 403, an unknown one a 404.",
  })
  @ApiIdParam('id', 'F24 request id.')
  @ApiOkResponse({ type: F24RequestDto })
  @ApiErrors(403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string): Promise<F24RequestDto> {
    return this.f24.get(companyId, id);
  }

  @Get(':id/file')
  @RequirePermission('payments:f24:read')
  @ApiOperation({
    operationId: 'getF24RequestFile',
    summary: 'Download an F24 file',
    description: 'The file as it was sent, with its media type. Errors are JSON, as everywhere.',
  })
  @ApiIdParam('id', 'F24 request id.')
  @ApiOkResponse({
    description: 'The file.',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiErrors(403, 404, ...COMMON_ERRORS)
  async file(@CompanyId() companyId: string, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    const file = await this.f24.file(companyId, id);
    reply.header('content-type', file.mediaType).header('content-disposition', `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`);
    return file.content;
  }
}
