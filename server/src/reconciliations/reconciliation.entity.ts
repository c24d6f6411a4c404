import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';

/** A link between a flow and the bank transaction that pays it. */
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

  @CreatedAt()
  createdAt: Date;
}
