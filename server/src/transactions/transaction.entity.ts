import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, dateColumn, moneyColumn } from '../common/database/timestamps.js';

/** Money never carries a sign, so the direction of a bank movement is its type. */
export const TRANSACTION_TYPES = ['CREDIT', 'DEBIT'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** A bank movement on one of the company's accounts. */
@Entity('transactions')
export class Transaction {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('uuid')
  accountId: string;

  @Column('text')
  type: TransactionType;

  @Column(moneyColumn)
  amount: string;

  @Column('char', { length: 3 })
  currency: string;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  bookingDateTime: Date | null;

  /** Accounting date of the movement. */
  @Column(dateColumn)
  date: string;

  @Column({ ...dateColumn, nullable: true })
  valueDate: string | null;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text', { nullable: true })
  cleanDescription: string | null;

  @Column('text', { nullable: true })
  counterpartName: string | null;

  @Column('uuid', { nullable: true })
  categoryId: string | null;

  @Column('uuid', { nullable: true })
  subcategoryId: string | null;

  @CreatedAt()
  createdAt: Date;
}
