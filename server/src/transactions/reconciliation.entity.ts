import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, moneyColumn } from '../common/database/timestamps.js';

/** A link between a flow and the bank transaction that pays it, with the part of the transaction that pays the flow. */
@Entity('reconciliations')
export class Reconciliation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('uuid')
  flowId: string;

  @Column('uuid')
  transactionId: string;

  /** The allocation: what of the transaction's amount pays the flow. A transaction's allocations never exceed it. */
  @Column(moneyColumn)
  amount: string;

  /** The flow's and the transaction's currency (they share one). */
  @Column('char', { length: 3 })
  currency: string;

  @CreatedAt()
  createdAt: Date;
}
