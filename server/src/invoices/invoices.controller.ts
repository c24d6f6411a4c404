import { Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompanyId, CurrentAuth, Public, type AuthContext } from '../common/auth/auth-context.js';
import { allows, RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiQueryOf, defineQuery, queryParam, type QueryOf } from '../common/http/query-spec.js';
import { BASE_PATH } from '../config/api-version.js';
import { DocumentDto } from '../documents/document.dto.js';
import { CreatedDocumentsDto, INVOICE_EXAMPLES, InvoiceResponseSchema } from './invoice.dto.js';
import { E_INVOICE_COMPONENT } from './fatturapa/index.js';
import { INVOICE_FILE_PATH } from './invoice-link.js';
import { RECONCILIATION_IDENTIFIER } from './create-invoice-query.js';
import { InvoiceFilesService } from './invoice-files.service.js';
import { InvoiceLane } from './invoice-lane.js';
import type { InvoiceBody } from './invoice-reader.js';
import { InvoicesService } from './invoices.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { SIGNED_FILE_TYPES } from '../common/http/xml-body.js';

/** The body as the content type says (the file parsers hand over the bytes; app.ts lets only these types through). */
export function invoiceBody(request: FastifyRequest): InvoiceBody {
  const type = request.headers['content-type']?.split(';')[0].trim().toLowerCase() ?? '';
  const bytes = Buffer.isBuffer(request.body) ? request.body : undefined;
  if (SIGNED_FILE_TYPES.includes(type)) return { kind: 'signed', bytes: bytes ?? Buffer.alloc(0) };
  if (bytes) return { kind: 'xml', bytes };
  // An empty XML body reaches no parser: it is an empty file, which the XML reader refuses as such.
  if (type === 'application/xml') return { kind: 'xml', bytes: Buffer.alloc(0) };
  if (!request.headers['content-type']) {
    throw ApiError.of('bad_request', 'The Content-Type header is missing: send the invoice as application/xml or application/json.');
  }
  if (request.body === undefined || request.body === null) {
    throw ApiError.of('bad_request', 'The request has no body: send one invoice as application/xml or application/json.');
  }
  return { kind: 'json', value: request.body };
}

/** Create-invoice's query: `issue` (default false), `reconciliation_identifier`, `sectional_id`. */
export const createInvoiceQuery = defineQuery({
  issue: queryParam.boolean({ description: 'true: issue the invoice (CREATED, sent to the SDI); false: keep it as a DRAFT.' }, { default: false }),
  reconciliation_identifier: queryParam.text(
    {
      schema: { type: 'string', minLength: 1, maxLength: 140, pattern: RECONCILIATION_IDENTIFIER.source },
      description:
        "Your reference for the payment (such as the text you ask the customer to write in the transfer's description). A bank transaction imported later whose description contains it is reconciled with the invoice's flows automatically.",
      example: 'RF18 0000 0000 0042',
    },
    {
      valid: (raw) => RECONCILIATION_IDENTIFIER.test(raw),
      invalid: 'reconciliation_identifier must be 1 to 140 printable ASCII characters, not starting or ending with a space.',
    },
  ),
  sectional_id: queryParam.uuid(
    {
      description:
        "A sectional of the company (numbering series) that numbers the invoice: its next number goes into `numero` and the document's `number`, and the document shows `sectional_id` and `progressive`. JSON invoices only, without `numero` (or with it empty): an XML file or a JSON `numero` is a 422 `invoice_number_given`. The invoice's date must be in the sectional's year (422 `sectional_year_mismatch`). Numbers are gap-free and unique: one is taken in the transaction that stores the invoice, and a create that fails gives it back. Another company's sectional is a 403, an unknown one a 404.",
    },
    { invalid: 'sectional_id must be the uuid of a sectional.' },
  ),
});

/** The signed link's query, read as sent: the signature is checked by the service (an expired or altered link is a 403). */
export const invoiceFileQuery = defineQuery(
  {
    expires: queryParam.text({ schema: { type: 'integer' }, description: 'When the link stops working (Unix seconds).' }, { required: true }),
    signature: queryParam.text({ schema: { type: 'string' }, description: 'The link signature.' }, { required: true }),
    form: queryParam.text({
      schema: { type: 'string', enum: ['p7m'] },
      description: 'Only in a `signed_file_url`: the signed file (.p7m) exactly as received, instead of the XML it carries.',
    }),
  },
  { lenient: true },
);

@ApiTags('Documents')
@Controller()
export class InvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly files: InvoiceFilesService,
    private readonly lane: InvoiceLane,
  ) {}

  @Post('companies/:company_id/documents/invoice')
  @RequirePermission('documents:write')
  @ApiCompanyParam()
  @ApiOperation({
    operationId: 'createInvoice',
    summary: 'Create an e-invoice',
    description:
      "Creates a document from one FatturaPA invoice (FPA12 or FPR12, schema 1.2.3; or a simplified invoice, FSM10: TD07 up to 400.00 euro VAT included, TD08, TD09, whose JSON form is `SimplifiedInvoice`), sent as the XML file (`application/xml`, up to 5 MB, no DOCTYPE, within the limits of the invoice guide: 422 `invoice_too_complex` past them or past the time Flusso gives one file to be read), as a signed file (`application/pkcs7-mime`: a CAdES `.p7m` envelope carrying the XML, in DER or base64, as the SDI accepts it; every signature must hold for its content, else 422 `invalid_signed_file`; the envelope is stored and transmitted as received and `file_name` ends in `.xml.p7m`) or as its JSON form (`application/json`; `progressivo_invio` may be left out; `numero` too with `sectional_id`; a line may name a `product_id` whose values fill the members it leaves out: `descrizione`, `prezzo_unitario`, `unita_misura`, `aliquota_iva`, `natura`; that also needs `products:read`). The invoice is checked against the schema (422 `invalid_invoice`, one item per problem with a pointer: an XML path such as `/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Data` for XML, a JSON Pointer for JSON) and against the checks the SDI applies beyond it (422 `sdi_check_failed`, `detail` starting with the SDI error code such as `00423`); the company must be the seller (the buyer for self-invoices), and an invoice with the number, year, type and seller of one already created is a duplicate (`00404`). Flusso assigns the ProgressivoInvio (five characters, never reused in the company) and the SDI file name (`file_name`, `IT01234567890_0001K.xml`), stores the XML as received (or as written from the JSON), and derives the document: number, type and direction from `TipoDocumento`, amounts, the counterpart (found by VAT number or tax code, else created) and one flow per `DettaglioPagamento` (a simplified invoice has none: one flow of its total, VAT included, due on its date). With `issue=true` the document is CREATED and sent to the SDI at once; otherwise it stays a DRAFT until issued. Answers 201 with the list of documents created (one), every member expanded. A new document is version 1 and records `document.created` with the document as answered; `document.updated` follows its changes, from issuing to the SDI's outcome. 409 `conflict` when the company's VAT number changed more than once while the invoice was being created: nothing was created, and the invoice can be sent again. Each server creates a few invoices at once and lines up the others (other calls never wait behind them); when its line is full it answers 503 `service_unavailable` with `Retry-After`, having changed nothing.",
  })
  @ApiQueryOf(createInvoiceQuery)
  @ApiConsumes('application/json', 'application/xml', 'application/pkcs7-mime')
  @ApiBody({
    schema: { $ref: `#/components/schemas/${E_INVOICE_COMPONENT}` },
    description: 'One FatturaPA invoice, ordinary or simplified.',
    examples: INVOICE_EXAMPLES,
  })
  @ApiCreatedResponse({ type: CreatedDocumentsDto, description: 'Created: the list of documents created (one), without `page`.' })
  @ApiErrors(
    400,
    'invalid_invoice_xml',
    'invalid_query_parameter',
    403,
    404,
    413,
    415,
    'invalid_invoice',
    'invalid_signed_file',
    'sdi_check_failed',
    'invoice_number_given',
    'sectional_year_mismatch',
    'invoice_too_complex',
    'conflict',
    ...COMMON_ERRORS,
  )
  create(
    @CompanyId() companyId: string,
    @CurrentAuth() auth: AuthContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query(createInvoiceQuery) query: QueryOf<typeof createInvoiceQuery>,
  ) {
    const options = {
      issue: query.issue,
      reconciliationIdentifier: query.reconciliation_identifier ?? null,
      sectionalId: query.sectional_id ?? null,
      productsReadable: allows(auth.permissions, 'products:read'),
    };
    return this.lane.run(reply.raw, () => this.invoices.create(companyId, invoiceBody(request), options)).then((data) => ({ data }));
  }

  @Post('companies/:company_id/documents/:id/issue')
  @RequirePermission('documents:write')
  @HttpCode(200)
  @ApiCompanyParam()
  @ApiIdParam('id', 'Document id.')
  @ApiOperation({
    operationId: 'issueDocument',
    summary: 'Issue a draft document',
    description:
      'Issues a DRAFT: it becomes CREATED and, for an e-invoice, is sent to the SDI, whose outcome moves it on (SENT, then DELIVERED, NOT_DELIVERED or DISCARDED; REFUSED by a public administration). Only a DRAFT can be issued (422 `invalid_state`). Answers with the document, every member expanded, and sends a `document.updated` webhook.',
  })
  @ApiOkResponse({ type: DocumentDto })
  @ApiErrors(400, 403, 404, 'invalid_state', ...COMMON_ERRORS)
  issue(@CompanyId() companyId: string, @Param('id') id: string) {
    return this.invoices.issue(companyId, id);
  }

  @Get('companies/:company_id/documents/:id/invoice')
  @RequirePermission('documents:read')
  @ApiCompanyParam()
  @ApiIdParam('id', 'Document id.')
  @ApiOperation({
    operationId: 'getInvoice',
    summary: 'Get the e-invoice of a document',
    description:
      'The invoice of an e-invoice document, in its JSON form, with `xml_url`: `null` until the invoice has been sent to the SDI, then a link to the XML file that works without an API key for a limited time (15 minutes unless configured otherwise); for an invoice sent as a signed file, `signed_file_url` links the envelope (.p7m) exactly as received and `xml_url` the XML it carries. Read the invoice again for a fresh link. A document that is not an e-invoice is a 404.',
  })
  @ApiOkResponse({ schema: InvoiceResponseSchema })
  @ApiErrors(403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Req() request: FastifyRequest) {
    return this.files.get(companyId, id, `${request.protocol}://${request.host}${BASE_PATH}`);
  }

  @Get(`${INVOICE_FILE_PATH}/:document_id`)
  @Public()
  @ApiOperation({
    operationId: 'getInvoiceFile',
    summary: 'Download an invoice XML by its signed link',
    description:
      'The XML file of an e-invoice, exactly as stored, behind the temporary link that `xml_url` gives, or the signed file (.p7m) as received behind `signed_file_url` (`form=p7m`). No API key: the link is signed. An expired or altered link is a 403.',
    security: [],
  })
  @ApiIdParam('document_id', 'Document id.')
  @ApiQueryOf(invoiceFileQuery)
  @ApiOkResponse({
    description: 'The invoice XML file, or with `form=p7m` the signed file as received.',
    content: {
      'application/xml': { schema: { type: 'string', format: 'binary' } },
      'application/pkcs7-mime': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiErrors(403, 404, 500)
  @Header('cache-control', 'private, no-store')
  async file(@Param('document_id') documentId: string, @Query(invoiceFileQuery) query: QueryOf<typeof invoiceFileQuery>, @Res() reply: FastifyReply) {
    const { bytes, fileName, contentType } = await this.files.file(documentId, query.expires, query.signature, query.form);
    return reply.type(contentType).header('content-disposition', `attachment; filename="${fileName}"`).send(bytes);
  }
}
