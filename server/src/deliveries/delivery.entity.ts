import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';

export const CHANNELS = ['webhook', 'mail'] as const;
export type Channel = (typeof CHANNELS)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A message composed up front (the mail channel): who gets it and what it says. */
export interface MailMessage {
  to: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** `content` is text, or base64 with `encoding: 'base64'` (a file kept byte for byte, whatever its charset). */
  attachments?: Array<{ filename: string; content: string; encoding?: 'base64'; contentType?: string }>;
}

/**
 * A webhook composed up front rather than from an event of the outbox: an endpoint's test event. It is about no
 * company, so it is no event of the outbox, and goes only to the endpoint it was made for.
 */
export interface WebhookMessage {
  /** The event id: `webhook-id` of every attempt and `id` of the body. */
  id: string;
  event: string;
  /** When it was composed: the body's `created_at`. */
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * One thing Flusso sends out, on one channel, until it succeeds or has failed for good: a webhook (an event of the
 * outbox, or a test event composed up front, to an endpoint) or an e-mail (a composed message). The delivery engine claims due rows, hands them to the channel's
 * sender and records every attempt.
 */
@Entity('deliveries')
export class Delivery {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  channel: Channel;

  @Column('uuid', { nullable: true })
  endpointId: string | null;

  @Column('uuid', { nullable: true })
  eventId: string | null;

  /** An e-mail, or a webhook composed up front (which has no `eventId`). */
  @Column('jsonb', { nullable: true })
  message: MailMessage | WebhookMessage | null;

  /** Deliveries sharing a key (and endpoint) are first attempted in `orderingAt` order: a webhook's document. */
  @Column('text', { nullable: true })
  orderingKey: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  orderingAt: Date | null;

  @Column('text')
  status: DeliveryStatus;

  /** Behind an earlier delivery of its ordering key that has not been attempted yet (delivery-order.ts). */
  @Column('boolean')
  waiting: boolean;

  /** Attempts made in the current schedule (a replay starts a new one). */
  @Column('integer')
  attempts: number;

  @Column({ type: 'timestamptz', precision: 3 })
  nextAttemptAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastAttemptAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  completedAt: Date | null;

  @CreatedAt()
  createdAt: Date;
}
