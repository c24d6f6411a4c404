import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import { ApiQueryOf, defineQuery, queryParam, type QueryOf } from '../common/http/query-spec.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { DocumentDto, UpdateDocumentDto } from './document.dto.js';
import { DOCUMENT_EXPANSIONS } from './document.presenter.js';
import { documentList } from './documents.repository.js';
import { DocumentsService } from './documents.service.js';
import { RequirePermission } from '../common/auth/permissions.js';

/** The query of a single read: the members to expand. */
export const documentQuery = defineQuery({ expand: queryParam.expand(DOCUMENT_EXPANSIONS) });

@ApiTags('Documents')
@ApiCompanyParam()
@Controller('companies/:company_id/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @RequirePermission('documents:read')
  @ApiOperation({
    operationId: 'listDocuments',
    summary: 'List documents',
    description: 'Lists issued and received documents of the company, newest first unless sorted.',
  })
  @ApiList(documentList, DocumentDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.documents.list(companyId, query);
  }

  @Get(':id')
  @RequirePermission('documents:read')
  @ApiOperation({ operationId: 'getDocument', summary: 'Get a document' })
  @ApiIdParam('id', 'Document id.')
  @ApiQueryOf(documentQuery)
  @ApiOkResponse({ type: DocumentDto })
  @ApiErrors('invalid_query_parameter', 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query(documentQuery) query: QueryOf<typeof documentQuery>) {
    return this.documents.get(companyId, id, query.expand);
  }

  @Patch(':id')
  @RequirePermission('documents:write')
  @ApiOperation({
    operationId: 'updateDocument',
    summary: 'Update a document',
    description:
      "Sets or clears the document's category, subcategory and notes; members left out stay as they are. A `subcategory_id` must belong to the `category_id` sent with it, else to the document's current category (422 `subcategory_mismatch`). A new `category_id` sent alone keeps the subcategory when it belongs to the new category and clears it otherwise; clearing the category clears the subcategory. Answers with the whole document, every member expanded. Sends a `document.updated` webhook and increments the document's version, unless the document already has those values (then nothing changes).",
  })
  @ApiIdParam('id', 'Document id.')
  @ApiBody({ type: UpdateDocumentDto })
  @ApiOkResponse({ type: DocumentDto })
  @ApiErrors(400, 403, 404, 413, 415, 422, 'subcategory_mismatch', ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateDocumentDto) {
    return this.documents.update(companyId, id, body);
  }

  @Delete(':id')
  @RequirePermission('documents:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteDocument',
    summary: 'Delete a document',
    description:
      "Deletes a document that is not in the SDI's books: a `DRAFT`, an e-invoice the SDI `DISCARDED` (it counts as never issued: correct it and send it again), or a document that is not an e-invoice (`is_e_invoice` false or null). Its flows go with it, and their reconciliations, which gives the bank transactions they allocated their amounts back. Any other e-invoice is refused with 409 `document_sent_to_sdi`: cancel it with a credit note. A document numbered from a sectional gives its number back to the series, so that numbers stay gap-free: only the document with the last number of the series can be deleted (409 `sectional_gap` for an earlier one), and the next document created from the sectional takes that number again. Sends a `document.deleted` webhook with the document as it was, at the next version. A document already deleted (also by a concurrent request) is a 404, and sends nothing.",
  })
  @ApiIdParam('id', 'Document id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 403, 404, 'document_sent_to_sdi', 'sectional_gap', ...COMMON_ERRORS)
  async delete(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.documents.delete(companyId, id);
  }
}
