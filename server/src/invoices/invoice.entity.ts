import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';
import type { EInvoice } from './fatturapa/index.js';

/** The FatturaPA file of an e-invoice document: as received (or as written from JSON), with its JSON form. */
@Entity('invoices')
export class StoredInvoice {
  @PrimaryColumn('uuid')
  documentId: string;

  @Column('uuid')
  companyId: string;

  /**
   * The system's ProgressivoInvio: five characters [0-9A-Z], unique in the company and never reused. Null for a file a
   * supplier sent the company: its ProgressivoInvio is the supplier's, in the file.
   */
  @Column('text', { nullable: true })
  progressivoInvio: string | null;

  /** How the invoice came in: the XML file itself (also a received one), or JSON that Flusso wrote as XML. */
  @Column('text')
  source: 'xml' | 'json';

  /** The file's bytes, exactly as received (any encoding the file declares) or as written from JSON. */
  @Column('bytea')
  xml: Buffer;

  /** The signed file (CAdES .p7m envelope) exactly as received, when the invoice came signed; `xml` is its content. */
  @Column('bytea', { nullable: true })
  signedFile: Buffer | null;

  /** The invoice's JSON form (the model's canonical form). */
  @Column('jsonb')
  invoice: EInvoice;

  /** Number, year, TipoDocumento and seller (SDI rule 00404); null once the SDI discarded the file. */
  @Column('text', { nullable: true })
  duplicateKey: string | null;

  /** The integrator's identifier that a later bank transaction's description carries, to reconcile it automatically. */
  @Column('text', { nullable: true })
  reconciliationIdentifier: string | null;

  /** Set when the document is issued: the worker queues the transmission to the SDI. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  transmissionRequestedAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  transmissionQueuedAt: Date | null;

  /** When the SDI took the file (the document became SENT): the signed link to the XML exists from then on. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  sentAt: Date | null;

  @CreatedAt()
  createdAt: Date;
}
