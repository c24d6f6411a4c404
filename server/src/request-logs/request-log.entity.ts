import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Environment } from '../config/config.js';

export const STATUS_CLASSES = ['4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** One failed request of an integrator's key (4xx or 5xx), kept 7 days: what it asked and how it ended, never its headers or body. */
@Entity('request_logs')
export class RequestLog {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  integratorId: string;

  @Column('text')
  environment: Environment;

  @Column('uuid')
  apiKeyId: string;

  /** The key's public start (its lookup), never the key. */
  @Column('text')
  keyPrefix: string;

  @Column('uuid', { nullable: true })
  companyId: string | null;

  @Column('text')
  method: string;

  /** The route's template as the OpenAPI document writes it; null when no route matched the path. */
  @Column('text', { nullable: true })
  route: string | null;

  @Column('text')
  path: string;

  @Column('smallint')
  status: number;

  @Column('text')
  statusClass: StatusClass;

  @Column('text', { array: true })
  errorCodes: string[];

  @Column('text')
  requestId: string;

  @Column('real')
  durationMs: number;

  /** When the request arrived. */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
