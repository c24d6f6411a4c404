import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CategoriesRepository } from '../categories/categories.repository.js';
import { classify } from '../categories/classification.js';
import { ApiError } from '../common/errors/api-error.js';
import { EventsService, type EventType } from '../common/events/events.service.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { SectionalsService } from '../sectionals/sectionals.service.js';
import type { DocumentDto, UpdateDocumentDto } from './document.dto.js';
import type { Document } from './document.entity.js';
import { ALL_DOCUMENT_EXPANSIONS, presentDocuments } from './document.presenter.js';
import { documentList, DocumentsRepository, type LockedDocument } from './documents.repository.js';

/** The statuses in which an e-invoice is not in the SDI's books: never sent, or discarded (counts as never issued). */
const DELETABLE_E_INVOICE_STATUSES: readonly string[] = ['DRAFT', 'DISCARDED'];

@Injectable()
export class DocumentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: DocumentsRepository,
    private readonly categories: CategoriesRepository,
    private readonly events: EventsService,
    private readonly sectionals: SectionalsService,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<DocumentDto>> {
    const query = parseListQuery(params, documentList);
    const { rows, cursor } = await this.repository.page(companyId, query);
    return page(await this.present(this.db.manager, rows, query.expand), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, expand: Set<string>): Promise<DocumentDto> {
    const document = await this.repository.findOwned(this.db.manager, companyId, id);
    const [presented] = await this.present(this.db.manager, [document], expand);
    return presented;
  }

  /**
   * Changes the document's category, subcategory and notes (classification rules in categories/classification.ts).
   * A request that changes nothing records nothing.
   */
  async update(companyId: string, id: string, changes: UpdateDocumentDto): Promise<DocumentDto> {
    if (changes.category_id === undefined && changes.subcategory_id === undefined && changes.notes === undefined) {
      throw ApiError.of('bad_request', 'The body names no member to update; send category_id, subcategory_id or notes.', '');
    }
    return this.db.transaction(async (manager) => {
      const document = await this.lockOwned(manager, companyId, id);
      const { categoryId, subcategoryId } = await classify(this.categories, manager, companyId, document, changes, 'document');
      const notes = changes.notes === undefined ? document.notes : changes.notes;
      if (categoryId === document.categoryId && subcategoryId === document.subcategoryId && notes === document.notes) {
        const [unchanged] = await this.present(manager, [document], ALL_DOCUMENT_EXPANSIONS);
        return unchanged;
      }
      await this.repository.update(manager, document, { categoryId, subcategoryId, notes });
      return this.recordUpdated(manager, document);
    });
  }

  /**
   * Deletes a document that is not in the SDI's books (a DRAFT, an e-invoice the SDI discarded, or a document that is
   * not an e-invoice), with its flows and their reconciliations (ON DELETE CASCADE), which gives the transactions those
   * reconciliations allocated their amounts back. Records `document.deleted` with the document as it was, at a version
   * one past its last. Any other e-invoice is part of the books as the SDI knows them: 409 `document_sent_to_sdi`. A
   * discarded invoice counts as never issued (Agenzia delle Entrate, circolare 14/E 2019), so it can be deleted and
   * sent again corrected, and a credit note could not cancel it.
   * A document numbered from a sectional gives its number back, which only the series' last one may (409
   * `sectional_gap`).
   */
  async delete(companyId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const document = await this.lockOwned(manager, companyId, id);
      if (document.isEInvoice === true && !DELETABLE_E_INVOICE_STATUSES.includes(document.status)) {
        throw ApiError.of(
          'document_sent_to_sdi',
          `Document ${document.number} is an e-invoice in status ${document.status}: it went to the SDI and stays in the books. Issue a credit note to cancel it.`,
        );
      }
      if (document.sectionalId !== null && document.progressive !== null) {
        await this.sectionals.giveBack(manager, {
          companyId: document.companyId,
          sectionalId: document.sectionalId,
          progressive: document.progressive,
          number: document.number,
        });
      }
      await this.recordChange(manager, document, 'document.deleted');
      await this.repository.delete(manager, document);
    });
  }

  /**
   * Takes the document's row lock: the one point that serialises every change to a document or its flows, so that
   * changes take effect, and their events are recorded, one after the other. Whoever changes a document or its flows
   * locks the document first (then flows, then transactions: one order everywhere, so changes never deadlock), reads
   * what it changes after the lock, and ends with `recordUpdated` if anything changed. Returns the row read under the
   * lock. The company is named, as in every statement on a request path: it uses the company's index, and it is what a
   * database sharded by company routes on.
   */
  async lock(
    manager: EntityManager,
    companyId: string,
    documentId: string,
    gone: () => ApiError = () => ApiError.notFound('Document'),
  ): Promise<LockedDocument> {
    const document = await this.repository.lock(manager, companyId, documentId);
    if (!document) throw gone();
    return document;
  }

  /** `lock` for a document named in the request: the company's, else findOwned's 404 or 403. */
  async lockOwned(manager: EntityManager, companyId: string, id: string): Promise<LockedDocument> {
    return this.repository.lockOwned(manager, companyId, id);
  }

  /**
   * Records that a locked document (or one of its flows) changed, inside the caller's transaction: increments its
   * version, moves `updated_at` to now (the clock after the lock, not the transaction's start, and always later than
   * the previous value), and records `document.updated` at that same instant with the document as it now is (every
   * expansion), which it returns. Only for a change that took effect: a request that changes nothing records nothing.
   */
  async recordUpdated(manager: EntityManager, document: LockedDocument): Promise<DocumentDto> {
    return this.recordChange(manager, document, 'document.updated');
  }

  /**
   * The version step of recordUpdated, for the event `type`: `document.deleted` records the document as it was when
   * deleted (with its flows), at the next version and the instant of the deletion, so that version and order rules
   * hold for it as for updates.
   */
  private async recordChange(manager: EntityManager, document: LockedDocument, type: EventType): Promise<DocumentDto> {
    const changed = await this.repository.nextVersion(manager, document);
    const [presented] = await this.present(manager, [changed], ALL_DOCUMENT_EXPANSIONS);
    await this.events.record(manager, changed.companyId, type, presented, changed.updatedAt);
    return presented;
  }

  /**
   * Records `document.created` for a document just inserted in the caller's transaction, with the document as the
   * creating call answers it (presentDocument with every expansion, the payload `document.updated` carries), at its
   * `updated_at` (version 1).
   */
  async recordCreated(manager: EntityManager, companyId: string, presented: DocumentDto, at: Date): Promise<void> {
    await this.events.record(manager, companyId, 'document.created', presented, at);
  }

  /** Documents as answered: their expansions loaded for the whole page, then presented. */
  private async present(manager: EntityManager, documents: Document[], expand: ReadonlySet<string>): Promise<DocumentDto[]> {
    return presentDocuments(documents, await this.repository.relations(manager, documents, expand));
  }
}
