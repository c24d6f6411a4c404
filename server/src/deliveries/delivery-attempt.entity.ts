import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * `unknown`: the attempt was cut off, or its worker died, before its outcome was known; the other side may have
 * received it, and gets it again on the next attempt.
 */
export const ATTEMPT_OUTCOMES = ['succeeded', 'failed', 'unknown'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One attempt of a delivery: when, how long, and what the other side answered (the first 1 KB of it). */
@Entity('delivery_attempts')
export class DeliveryAttempt {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  deliveryId: string;

  @Column({ type: 'timestamptz', precision: 3 })
  attemptedAt: Date;

  @Column('text')
  outcome: AttemptOutcome;

  @Column('integer')
  durationMs: number;

  @Column('integer', { nullable: true })
  responseStatus: number | null;

  @Column('text', { nullable: true })
  responseBody: string | null;

  @Column('text', { nullable: true })
  error: string | null;
}
