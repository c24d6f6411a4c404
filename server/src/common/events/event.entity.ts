import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../database/timestamps.js';

/**
 * The outbox: an event is written in the same database transaction as the change it describes, and delivered later
 * by the worker, so no change is ever announced that did not commit, nor committed without being announced.
 */
@Entity('events')
export class DomainEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('text')
  type: string;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @CreatedAt()
  createdAt: Date;

  /** Set once the event has been fanned out into deliveries (webhooks/event-fan-out.ts claims those without it). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  dispatchedAt: Date | null;
}
