import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/database/timestamps.js';

/** A numbering series of one year: numbers are `{prefix}{progressive padded to minimumDigits}{suffix}`. */
@Entity('sectionals')
export class Sectional {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('integer')
  year: number;

  @Column('text')
  prefix: string;

  @Column('text')
  suffix: string;

  @Column('integer')
  minimumDigits: number;

  /** The last progressive handed out (0: none yet). Only `takeNumber()` and `giveBack()` move it. */
  @Column('integer')
  lastProgressive: number;

  @CreatedAt()
  createdAt: Date;

  @UpdatedAt()
  updatedAt: Date;
}
