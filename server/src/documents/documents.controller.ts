import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import { ApiExpand, ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { DocumentDto, UpdateDocumentDto } from './document.dto.js';
import { documentList, DocumentsService } from './documents.service.js';

@ApiTags('Documents')
@ApiCompanyParam()
@Controller('companies/:company_id/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @ApiOperation({ operationId: 'listDocuments', summary: 'List documents', description: 'Lists issued and received documents of the company, newest first unless sorted.' })
  @ApiList(documentList, DocumentDto)
  @ApiErrors(400, 403, ...COMMON_ERRORS)
  list(@CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.documents.list(companyId, query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getDocument', summary: 'Get a document' })
  @ApiIdParam('id', 'Document id.')
  @ApiExpand(['category', 'counterpart', 'flows', 'subcategory'])
  @ApiOkResponse({ type: DocumentDto })
  @ApiErrors(400, 403, 404, ...COMMON_ERRORS)
  get(@CompanyId() companyId: string, @Param('id') id: string, @Query() query: QueryParams) {
    return this.documents.get(companyId, id, query);
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateDocument',
    summary: 'Update a document',
    description: 'Sets or clears the document\'s category. Answers with the whole document, every member expanded, and sends a `document.updated` webhook.',
  })
  @ApiIdParam('id', 'Document id.')
  @ApiBody({ type: UpdateDocumentDto })
  @ApiOkResponse({ type: DocumentDto })
  @ApiErrors(400, 403, 404, 413, 415, 422, ...COMMON_ERRORS)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() body: UpdateDocumentDto) {
    return this.documents.update(companyId, id, body);
  }
}
