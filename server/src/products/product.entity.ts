import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, moneyColumn, UpdatedAt } from '../common/database/timestamps.js';

/** A product or service the company sells: the defaults an invoice line can take from it. */
@Entity('products')
export class Product {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  /** Unique within the company. */
  @Column('text')
  code: string;

  @Column('text')
  description: string;

  @Column(moneyColumn)
  unitPrice: string;

  @Column('char', { length: 3 })
  currency: string;

  @Column('text', { nullable: true })
  unitOfMeasure: string | null;

  /** 0.00 to 100.00, two decimals. */
  @Column('numeric', { precision: 5, scale: 2 })
  vatPercentage: string;

  /** A FatturaPA Natura code: present exactly when the VAT percentage is 0. */
  @Column('text', { nullable: true })
  taxExemption: string | null;

  @CreatedAt()
  createdAt: Date;

  @UpdatedAt()
  updatedAt: Date;
}
