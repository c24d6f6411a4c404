import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import { canTransition } from '../../documents/document-transitions.js';
import { Document } from '../../documents/document.entity.js';
import { DocumentsService } from '../../documents/documents.service.js';
import { effectOf, type SdiNotice } from './sdi-notices.js';
import { SdiRepository } from './sdi.repository.js';

export type NoticeResult = 'applied' | 'already' | 'refused';

/**
 * Applies the SDI's notifications to documents, each in one transaction under the document's lock: the status moves
 * only along DOCUMENT_TRANSITIONS, and every change records `document.updated` (DocumentsService.recordUpdated). A
 * notice that was already applied (a job run twice) changes nothing; one the table forbids is refused and logged.
 */
@Injectable()
export class SdiNotifications {
  private readonly logger = new Logger(SdiNotifications.name);

  constructor(
    private readonly repository: SdiRepository,
    private readonly documents: DocumentsService,
  ) {}

  async apply(documentId: string, notice: SdiNotice): Promise<NoticeResult> {
    const effect = effectOf(notice);
    return this.repository.transaction(async (manager) => {
      // SDI jobs name the document alone (the worker's path, not a request's): its company is read, then named in the lock.
      const companyId = await this.repository.companyOf(manager, documentId);
      if (!companyId) throw ApiError.notFound('Document');
      const document = await this.documents.lock(manager, companyId, documentId);
      const status = effect.status ?? document.status;
      const deliveryStatus = effect.deliveryStatus ?? document.deliveryStatus;
      if (status === document.status && deliveryStatus === document.deliveryStatus) return 'already';
      if (status !== document.status && !canTransition(document.status, status)) {
        this.logger.warn(`SDI notice ${notice.kind} for document ${documentId} refused: ${document.status} → ${status} is not an allowed transition`);
        return 'refused';
      }
      if (effect.status === null && document.status !== 'DELIVERED') return 'refused';
      const changes: Partial<Document> = { status, deliveryStatus };
      if (notice.kind === 'RC') changes.deliveryDate = new Date();
      // A discarded invoice counts as never issued: its number may be sent again (SDI rule 00404 compares accepted ones).
      await this.repository.applyNotice(manager, document.id, changes, { sent: notice.kind === 'sent', released: notice.kind === 'NS' });
      await this.documents.recordUpdated(manager, document);
      return 'applied';
    });
  }
}
