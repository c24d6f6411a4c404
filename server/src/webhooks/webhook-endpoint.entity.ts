import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/database/timestamps.js';
import type { Environment } from '../config/config.js';

export const DISABLED_REASONS = ['requested', 'gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** Where an integrator receives webhooks, in one environment. Secrets are stored encrypted (webhook-secrets.ts). */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  integratorId: string;

  @Column('text')
  environment: Environment;

  @Column('text')
  url: string;

  @Column('text')
  description: string;

  @Column('boolean')
  enabled: boolean;

  @Column('text', { nullable: true })
  disabledReason: DisabledReason | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  disabledAt: Date | null;

  /**
   * The permissions of the API key that registered the endpoint or last changed its URL (`*` when an operator did):
   * the endpoint receives only the events they may read (event-permissions.ts).
   */
  @Column('text', { array: true })
  permissions: string[];

  /** The event types the endpoint receives (enabled-events.ts): `*`, every type, by default. */
  @Column('text', { array: true })
  enabledEvents: string[];

  /** The API key that registered the endpoint or last changed its URL; null when an operator did, or before 2026-11. */
  @Column('uuid', { nullable: true })
  apiKeyId: string | null;

  @Column('text')
  secret: string;

  /** The secret before the last rotation, still signing next to the new one until `previousSecretExpiresAt`. */
  @Column('text', { nullable: true })
  previousSecret: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  previousSecretExpiresAt: Date | null;

  /** When the attempts to this endpoint started failing (null after any success). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  failingSince: Date | null;

  @CreatedAt()
  createdAt: Date;

  @UpdatedAt()
  updatedAt: Date;
}
