import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Environment } from '../../config/config.js';
import { CreatedAt } from '../database/timestamps.js';

/** An integrator's API key. Only a keyed hash of the secret is stored; the secret is shown once, at creation. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  integratorId: string;

  @Column('text')
  environment: Environment;

  @Column('text')
  name: string;

  /** The public start of the key (environment prefix and lookup id), unique, used to find the row. */
  @Column('text', { unique: true })
  lookup: string;

  /** HMAC-SHA256 of the whole key with the server's pepper, hex. */
  @Column('text')
  secretHash: string;

  /** What the key may do (common/auth/permissions.ts), in stored form: `*` alone, or read/write per resource family. */
  @Column('text', { array: true })
  permissions: string[];

  @CreatedAt()
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;

  /** When a rolled key stops working; null for a key that was never rolled. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  expiresAt: Date | null;

  /** When the key last authenticated a request, approximately: each API process writes it at most once a minute. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt: Date | null;
}
