import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Category } from '../categories/category.entity.js';
import { byId, findOwned, findOwnedLocked } from '../common/database/find-owned.js';
import { groupBy } from '../common/database/group-by.js';
import { hydrate } from '../common/database/hydrate.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { loadAll } from '../common/database/load-all.js';
import { queryPrepared } from '../common/database/prepared.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Counterpart } from '../counterparts/counterpart.entity.js';
import { Flow } from '../flows/flow.entity.js';
import { Sectional } from '../sectionals/sectional.entity.js';
import { Document } from './document.entity.js';
import { DIRECTIONS, DOCUMENT_STATUSES, DOCUMENT_TYPES, type DocumentStatus } from './document.enums.js';
import type { DocumentRelations } from './document.presenter.js';

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

/** A document row for the snapshots' examples. */
const EXAMPLE_DOCUMENT = {
  companyId: DummyValue.COMPANY_ID,
  id: DummyValue.UUID,
  categoryId: DummyValue.UUID,
  subcategoryId: DummyValue.UUID,
  counterpartId: DummyValue.UUID,
  sectionalId: DummyValue.UUID,
};

declare const locked: unique symbol;
/** A document read under its row lock (DocumentsRepository.lock): what recordUpdated asks for, so no change skips the lock. */
export type LockedDocument = Document & { readonly [locked]: true };

/**
 * The SQL of documents: pages, reads that tell 404 from 403, the row lock that serialises every change to a document
 * or its flows, the version step of each change, and the rows a document's expansions show. Every statement on a
 * request path names the company: it uses the company's index, and it is what a database sharded by company routes on.
 */
@Injectable()
export class DocumentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the company's documents. */
  @GenerateSql(
    { params: [DummyValue.COMPANY_ID, parseListQuery({}, documentList)] },
    { name: 'filtered by counterpart', params: [DummyValue.COMPANY_ID, parseListQuery({ 'filter[counterpart_company_name]': 'Rossi' }, documentList)] },
  )
  page(companyId: string, query: ListQuery): Promise<{ rows: Document[]; cursor: string | null }> {
    const base = this.db.getRepository(Document).createQueryBuilder('d').where('d.companyId = :companyId', { companyId });
    return fetchPage(base, documentList, query);
  }

  /** The company's document: 404, or 403 when it is another company's. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(manager: EntityManager, companyId: string, id: string): Promise<Document> {
    return findOwned(manager.getRepository(Document), companyId, id, 'Document');
  }

  /** The document under its row lock, or null when the company has no such document. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  async lock(manager: EntityManager, companyId: string, id: string): Promise<LockedDocument | null> {
    // FOR NO KEY UPDATE: it excludes every other change of the document, not the foreign-key checks of rows that point at it.
    const document = await manager.getRepository(Document).findOne({ where: { companyId, id }, lock: { mode: 'for_no_key_update' } });
    return document as LockedDocument | null;
  }

  /** `lock` for a document named in the request: the company's, else findOwned's 404 or 403. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, DummyValue.UUID] })
  async lockOwned(manager: EntityManager, companyId: string, id: string): Promise<LockedDocument> {
    return (await findOwnedLocked(manager.getRepository(Document), companyId, id, 'Document', 'for_no_key_update')) as LockedDocument;
  }

  /** Writes the members a change sets; the version step is `nextVersion`'s. */
  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID },
      { categoryId: null, subcategoryId: null, notes: DummyValue.STRING },
    ],
  })
  async update(
    manager: EntityManager,
    document: LockedDocument,
    changes: Partial<Pick<Document, 'categoryId' | 'subcategoryId' | 'notes' | 'status'>>,
  ): Promise<void> {
    await manager.getRepository(Document).update({ companyId: document.companyId, id: document.id }, changes);
  }

  /** Sets a status (the SDI's notices, issuing a draft). */
  @GenerateSql({ params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID }, 'CREATED'] })
  async setStatus(manager: EntityManager, document: LockedDocument, status: DocumentStatus): Promise<void> {
    await this.update(manager, document, { status });
  }

  @GenerateSql({ params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID }] })
  async delete(manager: EntityManager, document: LockedDocument): Promise<void> {
    await manager.getRepository(Document).delete({ companyId: document.companyId, id: document.id });
  }

  /**
   * Increments the document's version and moves `updated_at` to now (the clock after the lock, not the transaction's
   * start, and always later than the previous value): the document as it now is.
   */
  @GenerateSql({ params: [DummyValue.MANAGER, { companyId: DummyValue.COMPANY_ID, id: DummyValue.UUID }] })
  async nextVersion(manager: EntityManager, document: LockedDocument): Promise<Document> {
    const [rows]: [Array<Record<string, unknown>>] = await manager.query(
      `UPDATE documents SET version = version + 1, updated_at = greatest(updated_at + interval '1 millisecond', clock_timestamp())
        WHERE company_id = $1 AND id = $2
       RETURNING *`,
      [document.companyId, document.id],
    );
    return hydrate(manager, Document, rows)[0];
  }

  /**
   * The rows the requested expansions show, each loaded in one query for the whole page (side by side on the pool,
   * one after the other in a transaction); null for an expansion not asked for.
   */
  // One example per expansion: loaded side by side, their statements would reach the snapshot in any order.
  @GenerateSql(
    ...['category', 'counterpart', 'flows', 'sectional', 'subcategory'].map((expansion) => ({
      name: expansion,
      params: [DummyValue.MANAGER, [EXAMPLE_DOCUMENT], new Set([expansion])],
    })),
  )
  async relations(manager: EntityManager, documents: Document[], expand: ReadonlySet<string>): Promise<DocumentRelations> {
    const categories = manager.getRepository(Category);
    const [categoryById, subcategoryById, counterpartById, sectionalById, flowsByDocument] = await loadAll(manager, [
      async () =>
        expand.has('category')
          ? byId(
              categories,
              documents.map((d) => d.categoryId),
            )
          : null,
      async () =>
        expand.has('subcategory')
          ? byId(
              categories,
              documents.map((d) => d.subcategoryId),
            )
          : null,
      async () =>
        expand.has('counterpart')
          ? byId(
              manager.getRepository(Counterpart),
              documents.map((d) => d.counterpartId),
            )
          : null,
      async () =>
        expand.has('sectional')
          ? byId(
              manager.getRepository(Sectional),
              documents.map((d) => d.sectionalId),
            )
          : null,
      async () => (expand.has('flows') ? groupBy(await this.flowsOf(manager, documents), (f) => f.documentId) : null),
    ] as const);
    return { categoryById, subcategoryById, counterpartById, sectionalById, flowsByDocument };
  }

  /** The documents' flows in flowOrder. */
  private async flowsOf(manager: EntityManager, documents: Document[]): Promise<Flow[]> {
    if (!documents.length) return [];
    // Prepared (one text whatever the page's size): every document list and read with its flows asks it. With
    // company_id the index (company_id, document_id, …) finds them; without it PostgreSQL reads every flow there is.
    // The order is flowOrder's.
    const rows = await queryPrepared(
      manager,
      `SELECT * FROM flows WHERE company_id = ANY($1::uuid[]) AND document_id = ANY($2::uuid[])
       ORDER BY expected_payment_date ASC NULLS LAST, created_at ASC, id ASC`,
      [[...new Set(documents.map((d) => d.companyId))], documents.map((d) => d.id)],
    );
    return hydrate(manager, Flow, rows);
  }
}
