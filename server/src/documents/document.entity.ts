import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, dateColumn, moneyColumn } from '../common/database/timestamps.js';
import type { DeliveryStatus, DocumentFormat, DocumentStatus, DocumentType, Direction } from './document.enums.js';

/** An issued or received document: an e-invoice sent through the SDI, or any other document with payment flows. */
@Entity('documents')
export class Document {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('text')
  number: string;

  @Column('text')
  type: DocumentType;

  @Column('text')
  status: DocumentStatus;

  /** The file's FormatoTrasmissione for an e-invoice, else documentFormat() (document-format.ts). */
  @Column('text')
  format: DocumentFormat;

  @Column('boolean', { nullable: true })
  isEInvoice: boolean | null;

  @Column('text')
  direction: Direction;

  /** Currency of gross_amount and vat_amount. */
  @Column('char', { length: 3 })
  currency: string;

  @Column(moneyColumn)
  grossAmount: string;

  @Column(moneyColumn)
  vatAmount: string;

  @Column('uuid', { nullable: true })
  categoryId: string | null;

  @Column('uuid', { nullable: true })
  subcategoryId: string | null;

  @Column('uuid', { nullable: true })
  counterpartId: string | null;

  /** The document's own date (data documento). */
  @Column(dateColumn)
  creationDate: string;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  deliveryDate: Date | null;

  @Column('text', { nullable: true })
  deliveryStatus: DeliveryStatus | null;

  @Column('text', { nullable: true })
  fileName: string | null;

  @Column('text', { nullable: true })
  notes: string | null;

  /** The sectional the document's number was taken from (sectionals/), with `progressive`; both null otherwise. */
  @Column('uuid', { nullable: true })
  sectionalId: string | null;

  @Column('integer', { nullable: true })
  progressive: number | null;

  /** The integrator's own identifier for the document, for matching it in their system. */
  @Column('text', { nullable: true })
  sourceId: string | null;

  @CreatedAt()
  createdAt: Date;

  /**
   * When the last change took effect. Written only by DocumentsService.recordUpdated (not on every save, as an
   * UpdateDateColumn would, with the transaction's start time), so that it moves with `version` and never goes back.
   */
  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  updatedAt: Date;

  /** Incremented by every change to the document or its flows (DocumentsService.recordUpdated); starts at 1. */
  @Column({ type: 'integer', default: 1 })
  version: number;
}
