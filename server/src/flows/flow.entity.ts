import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, dateColumn, moneyColumn, UpdatedAt } from '../common/database/timestamps.js';
import type { PaymentMethod, PaymentStatus } from './flow.enums.js';

/** A payment expected for a document (an instalment): money in for issued documents, out for received ones. */
@Entity('flows')
export class Flow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('uuid')
  documentId: string;

  @Column(moneyColumn)
  amount: string;

  @Column('char', { length: 3 })
  currency: string;

  /** The sum of the flow's reconciliation amounts, kept by flows/flow-coverage.ts; never more than `amount`. */
  @Column({ ...moneyColumn, default: '0' })
  paidAmount: string;

  @Column('text')
  paymentStatus: PaymentStatus;

  @Column('text', { nullable: true })
  paymentMethod: PaymentMethod | null;

  @Column({ ...dateColumn, nullable: true })
  expectedPaymentDate: string | null;

  @Column({ ...dateColumn, nullable: true })
  paymentDate: string | null;

  @CreatedAt()
  createdAt: Date;

  @UpdatedAt()
  updatedAt: Date;
}
