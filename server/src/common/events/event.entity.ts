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

  /**
   * The top-level database transaction that recorded the event (`pg_current_xact_id()`, set by the database): the
   * events API's commit order (events/events.repository.ts). A bigint column, read as a string.
   */
  @Column({ type: 'bigint', insert: false, update: false })
  transactionId: string;

  /** The order of recording (an identity column), which orders the events of one transaction. */
  @Column({ type: 'bigint', insert: false, update: false })
  position: string;

  /** The document a `document.*` event is about (generated from its payload), for the events API's filter. */
  @Column({ type: 'uuid', nullable: true, insert: false, update: false })
  documentId: string | null;

  /** The version of the API whose presenter wrote the payload. */
  @Column('text')
  apiVersion: string;

  /** Set once the event has been fanned out into deliveries (webhooks/event-fan-out.ts claims those without it). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  dispatchedAt: Date | null;
}
