import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, moneyColumn } from '../common/database/timestamps.js';

/** A bank account; its balances are money in the account's currency. */
@Entity('accounts')
export class Account {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('text', { nullable: true })
  nickname: string | null;

  @Column('text', { nullable: true })
  iban: string | null;

  @Column('char', { length: 3, nullable: true })
  currency: string | null;

  @Column({ ...moneyColumn, nullable: true })
  currentBalance: string | null;

  @Column({ ...moneyColumn, nullable: true })
  availableBalance: string | null;

  @Column({ ...moneyColumn, nullable: true })
  creditLimit: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  balanceDate: Date | null;

  @CreatedAt()
  createdAt: Date;
}
