import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';

/** A category, or a subcategory when it has a parent. Documents and transactions carry one of each. */
@Entity('categories')
export class Category {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('uuid', { nullable: true })
  parentId: string | null;

  @Column('text')
  name: string;

  @CreatedAt()
  createdAt: Date;
}
