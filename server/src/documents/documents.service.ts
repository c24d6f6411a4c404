import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Category } from '../categories/category.entity.js';
import { findOwned } from '../common/database/find-owned.js';
import { ApiError } from '../common/errors/api-error.js';
import { EventsService } from '../common/events/events.service.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseExpand, parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Counterpart } from '../counterparts/counterpart.entity.js';
import type { DocumentDto, UpdateDocumentDto } from './document.dto.js';
import { Document } from './document.entity.js';
import { DIRECTIONS, DOCUMENT_STATUSES, DOCUMENT_TYPES } from './document.enums.js';
import { ALL_DOCUMENT_EXPANSIONS, presentDocuments } from './document.presenter.js';

export const documentList = defineList({
  alias: 'd',
  filters: {
    creation_date: { column: 'd.creationDate', type: 'date' },
    delivery_date: { column: 'd.deliveryDate', type: 'datetime', nullable: true },
    direction: { column: 'd.direction', type: 'enum', values: DIRECTIONS },
    status: { column: 'd.status', type: 'enum', values: DOCUMENT_STATUSES },
    type: { column: 'd.type', type: 'enum', values: DOCUMENT_TYPES },
    number: { column: 'd.number', type: 'string' },
    counterpart_company_name: { column: 'counterpart.companyName', type: 'string', nullable: true, join: 'counterpart' },
    notes: { column: 'd.notes', type: 'string', nullable: true },
    source_id: { column: 'd.sourceId', type: 'string', nullable: true },
  },
  sorts: {
    created_at: { column: 'd.createdAt', type: 'datetime' },
    creation_date: { column: 'd.creationDate', type: 'date' },
    delivery_date: { column: 'd.deliveryDate', type: 'datetime', nullable: true },
    number: { column: 'd.number', type: 'string' },
  },
  defaultSort: '-created_at',
  expansions: ['category', 'flows', 'subcategory'],
  joins: {
    counterpart: (qb) => qb.leftJoin(Counterpart, 'counterpart', 'counterpart.id = d.counterpartId AND counterpart.companyId = d.companyId'),
  },
});

const DOCUMENT_EXPANSIONS = ['category', 'counterpart', 'flows', 'subcategory'] as const;

@Injectable()
export class DocumentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: EventsService,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<DocumentDto>> {
    const query = parseListQuery(params, documentList);
    const base = this.db.getRepository(Document).createQueryBuilder('d').where('d.companyId = :companyId', { companyId });
    const { rows, cursor } = await fetchPage(base, documentList, query);
    return page(await presentDocuments(this.db.manager, rows, query.expand), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<DocumentDto> {
    rejectUnknownParams(params, ['expand']);
    const expand = parseExpand(params, DOCUMENT_EXPANSIONS);
    const document = await findOwned(this.db.getRepository(Document), companyId, id, 'Document');
    const [presented] = await presentDocuments(this.db.manager, [document], expand);
    return presented;
  }

  /** Changes the document's category; the subcategory stays only if it belongs to the new category. */
  async update(companyId: string, id: string, changes: UpdateDocumentDto): Promise<DocumentDto> {
    if (changes.category_id === undefined) {
      throw ApiError.of('bad_request', 'The body names no member to update; send category_id.', '/category_id');
    }
    return this.db.transaction(async (manager) => {
      const documents = manager.getRepository(Document);
      const document = await findOwned(documents, companyId, id, 'Document');
      let categoryId: string | null = null;
      if (changes.category_id !== null && changes.category_id !== undefined) {
        const category = await findOwned(manager.getRepository(Category), companyId, changes.category_id, 'Category', '/category_id');
        if (category.parentId !== null) {
          throw ApiError.of('unprocessable_entity', 'category_id names a subcategory; use a top-level category.', '/category_id');
        }
        // The stored id, in canonical lower case: the request may write the uuid in upper case.
        categoryId = category.id;
      }
      let subcategoryId = document.subcategoryId;
      if (subcategoryId !== null) {
        const subcategory = await manager.getRepository(Category).findOneBy({ id: subcategoryId });
        if (subcategory?.parentId !== categoryId) subcategoryId = null;
      }
      await documents.update({ id: document.id }, { categoryId, subcategoryId });
      return this.recordUpdated(manager, companyId, document.id);
    });
  }

  /**
   * Records `document.updated` for a document whose data or flows changed, inside the caller's transaction, and
   * returns the document as the event carries it (every expansion).
   */
  async recordUpdated(manager: EntityManager, companyId: string, documentId: string): Promise<DocumentDto> {
    const documents = manager.getRepository(Document);
    await documents.createQueryBuilder().update().set({ updatedAt: () => 'now()' }).where('id = :documentId', { documentId }).execute();
    const document = await documents.findOneByOrFail({ id: documentId });
    const [presented] = await presentDocuments(manager, [document], ALL_DOCUMENT_EXPANSIONS);
    await this.events.record(manager, companyId, 'document.updated', presented as unknown as Record<string, unknown>);
    return presented;
  }
}
