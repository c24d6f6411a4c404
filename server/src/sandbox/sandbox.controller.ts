import { Body, Controller, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompanyId } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { DocumentDto } from '../documents/document.dto.js';
import { CreatedDocumentsDto, RECEIVED_INVOICE_EXAMPLE } from '../invoices/invoice.dto.js';
import { invoiceBody } from '../invoices/invoices.controller.js';
import { InvoiceLane } from '../invoices/invoice-lane.js';
import { InvoicesService } from '../invoices/invoices.service.js';
import { CreatedTransactionsDto, CreateSandboxTransactionsDto, MAX_SANDBOX_TRANSACTIONS } from './sandbox.dto.js';
import { DevelopmentOnlyGuard } from './development-only.guard.js';
import { SandboxService } from './sandbox.service.js';

const DEVELOPMENT_ONLY = 'Development environment only: with a production key (on the production API) the path answers 404 `not_found`.';

@ApiTags('Sandbox')
@ApiCompanyParam()
@UseGuards(DevelopmentOnlyGuard)
@Controller('companies/:company_id/sandbox')
export class SandboxController {
  constructor(
    private readonly sandbox: SandboxService,
    private readonly invoices: InvoicesService,
    private readonly lane: InvoiceLane,
  ) {}

  @Post('transactions')
  @RequirePermission('transactions:write')
  @ApiOperation({
    operationId: 'createSandboxTransactions',
    summary: 'Create bank transactions (sandbox)',
    description: `${DEVELOPMENT_ONLY} Creates 1 to ${MAX_SANDBOX_TRANSACTIONS} bank movements on one of the company's accounts, as if its bank had sent them: all or none, in the account's currency (EUR when it has none), the sign of \`amount\` giving the type (positive CREDIT, negative DEBIT), \`date\` also the value date. They are then reconciled exactly as a CSV import's are: a movement whose description contains an invoice's \`reconciliation_identifier\` (ignoring case) pays that invoice's open flows in order of due date, each link sending its \`document.updated\` webhook. Answers 201 with the transactions, \`reconciliations.flow\` expanded. Another company's account is a 403, an unknown one a 404.`,
  })
  @ApiBody({ type: CreateSandboxTransactionsDto })
  @ApiCreatedResponse({ type: CreatedTransactionsDto, description: 'Created: the transactions, in the order sent, without `page`.' })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  async createTransactions(@CompanyId() companyId: string, @Body() body: CreateSandboxTransactionsDto) {
    return { data: await this.sandbox.createTransactions(companyId, body) };
  }

  @Post('received-invoices')
  @RequirePermission('documents:write')
  @ApiOperation({
    operationId: 'receiveSandboxInvoice',
    summary: "Receive a supplier's e-invoice (sandbox)",
    description: `${DEVELOPMENT_ONLY} Hands the company a supplier's FatturaPA file as the SDI would: the XML (\`application/xml\`, up to 5 MB) or a signed file carrying it (\`application/pkcs7-mime\`), in which the company is the buyer (CessionarioCommittente) and not the seller. It is checked as create-invoice checks a file (422 \`invalid_invoice\` and \`sdi_check_failed\`, with the same pointers), and becomes a RECEIVED document, DELIVERED at once: the seller its counterpart (found by VAT number or tax code, else created), amounts and payable flows derived from the file as for every e-invoice, \`file_name\` the supplier's (\`IT01234567890_00001.xml\`). The file is stored as received and readable at once through getInvoice (\`xml_url\`). A file the company already has (same seller, number, year and type) is a 422 \`sdi_check_failed\` with code 00404. Answers 201 with the list of documents created (one), every member expanded, and records \`document.created\` with it.`,
  })
  @ApiConsumes('application/xml', 'application/pkcs7-mime')
  @ApiBody({ schema: { type: 'string' }, description: "The supplier's FatturaPA file.", examples: { xml: RECEIVED_INVOICE_EXAMPLE } })
  @ApiCreatedResponse({ type: CreatedDocumentsDto, description: 'Created: the list of documents created (one), without `page`.' })
  @ApiErrors(400, 'invalid_invoice_xml', 403, 404, 413, 415, 'invalid_invoice', 'invalid_signed_file', 'sdi_check_failed', ...COMMON_ERRORS)
  async receiveInvoice(@CompanyId() companyId: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return { data: await this.lane.run(reply.raw, () => this.invoices.receive(companyId, invoiceBody(request))) };
  }

  @Post('documents/:id/sdi-notices')
  @RequirePermission('documents:write')
  @HttpCode(200)
  @ApiIdParam('id', 'Document id: an issued e-invoice.')
  @ApiOperation({
    operationId: 'deliverSandboxSdiNotices',
    summary: "Deliver the SDI sandbox's pending notices now (sandbox)",
    description: `${DEVELOPMENT_ONLY} The SDI sandbox answers an issued e-invoice after a few seconds (SDI_SANDBOX_DELAYS); this sends at once everything it still owes the document: its transmission when still CREATED (SENT), then every notice of the outcome its \`CodiceDestinatario\` chooses (DELIVERED, NOT_DELIVERED, DISCARDED, or DELIVERED then REFUSED), each change with its \`document.updated\` webhook, as the sandbox itself would. The sandbox sends nothing twice. A document already past its outcome (or a received one) is answered as it is. Answers with the document, \`flows\` expanded. A DRAFT or a document that is not an e-invoice is a 422 \`invalid_state\`.`,
  })
  @ApiOkResponse({ type: DocumentDto })
  @ApiErrors(403, 404, 'invalid_state', ...COMMON_ERRORS)
  deliverSdiNotices(@CompanyId() companyId: string, @Param('id') id: string) {
    return this.sandbox.deliverSdiNotices(companyId, id);
  }
}
