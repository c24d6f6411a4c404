import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';

/** A third-party system (an accounting product) that calls the API with its keys. */
@Entity('integrators')
export class Integrator {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  contactEmail: string | null;

  @CreatedAt()
  createdAt: Date;
}
