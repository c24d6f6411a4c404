import { Column, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/database/timestamps.js';
import { Subscription } from './subscription.entity.js';

@Entity('companies')
export class Company {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  vatNumber: string | null;

  /** Its codice fiscale when that is not its partita IVA (a sole trader's 16 characters); the operator sets it. */
  @Column('text', { nullable: true })
  taxNumber: string | null;

  /** ISO 3166-1 alpha-2. */
  @Column('char', { length: 2 })
  country: string;

  /** FatturaPA RegimeFiscale, RF01…RF20. */
  @Column('text')
  fiscalRegime: string;

  @OneToMany(() => Subscription, (subscription) => subscription.company)
  subscriptions?: Subscription[];

  @CreatedAt()
  createdAt: Date;

  @UpdatedAt()
  updatedAt: Date;
}
