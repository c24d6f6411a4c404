import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Document } from '../documents/document.entity.js';
import { InvoiceShare } from './share.entity.js';

export const shareList = defineList({
  alias: 's',
  filters: { created_at: { column: 's.createdAt', type: 'datetime' } },
  sorts: { created_at: { column: 's.createdAt', type: 'datetime' } },
  defaultSort: '-created_at',
  expansions: [],
});

/** The SQL of invoice shares: the shared document, the share rows and their pages (their e-mails are deliveries). */
@Injectable()
export class SharesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The company's document (404, or 403 when another company's). */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID] })
  document(companyId: string, documentId: string): Promise<Document> {
    return findOwned(this.db.getRepository(Document), companyId, documentId, 'Document');
  }

  /** Records a share in the caller's transaction (the one that queues its e-mail). */
  @GenerateSql({
    params: [
      DummyValue.MANAGER,
      {
        companyId: DummyValue.COMPANY_ID,
        documentId: DummyValue.UUID,
        deliveryId: DummyValue.UUID,
        recipients: ['a@cliente.example'],
        replyTo: 'b@rossi.example',
        subject: 'Fattura',
      },
    ],
  })
  insert(
    manager: EntityManager,
    share: Pick<InvoiceShare, 'companyId' | 'documentId' | 'deliveryId' | 'recipients' | 'replyTo' | 'subject'>,
  ): Promise<InvoiceShare> {
    const repository = manager.getRepository(InvoiceShare);
    return repository.save(repository.create(share));
  }

  @GenerateSql({ params: [DummyValue.UUID, parseListQuery({}, shareList)] })
  page(documentId: string, query: ListQuery): Promise<{ rows: InvoiceShare[]; cursor: string | null }> {
    const base = this.db.getRepository(InvoiceShare).createQueryBuilder('s').where('s.documentId = :documentId', { documentId });
    return fetchPage(base, shareList, query);
  }

  /** The company's share (404, or 403 when another company's). */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(companyId: string, id: string): Promise<InvoiceShare> {
    return findOwned(this.db.getRepository(InvoiceShare), companyId, id, 'Share');
  }
}
