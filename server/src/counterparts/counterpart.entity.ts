import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/database/timestamps.js';

/** A customer or supplier of the company. */
@Entity('counterparts')
export class Counterpart {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('text', { nullable: true })
  companyName: string | null;

  @Column('text', { nullable: true })
  address: string | null;

  @Column('text', { nullable: true })
  city: string | null;

  @Column('text', { nullable: true })
  postalCode: string | null;

  @Column('text', { nullable: true })
  provinceCode: string | null;

  @Column('char', { length: 2, nullable: true })
  country: string | null;

  /** Codice fiscale. */
  @Column('text', { nullable: true })
  taxNumber: string | null;

  /** Partita IVA, with its country prefix. */
  @Column('text', { nullable: true })
  vatNumber: string | null;

  /** SDI codice destinatario. */
  @Column('text', { nullable: true })
  destinationCode: string | null;

  /** PEC (certified e-mail) address. */
  @Column('text', { nullable: true })
  pecAddress: string | null;

  @CreatedAt()
  createdAt: Date;

  @UpdatedAt()
  updatedAt: Date;
}
