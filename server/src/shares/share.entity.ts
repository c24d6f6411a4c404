import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';

/**
 * A request to e-mail the courtesy copy of a document's e-invoice. The message itself is a mail delivery (the one
 * delivery mechanism, see deliveries/); this row says which document it copies and who asked for whom, and the
 * delivery's state is the share's status.
 */
@Entity('invoice_shares')
export class InvoiceShare {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('uuid')
  documentId: string;

  @Column('uuid')
  deliveryId: string;

  @Column('text', { array: true })
  recipients: string[];

  @Column('text')
  replyTo: string;

  @Column('text')
  subject: string;

  @CreatedAt()
  createdAt: Date;
}
