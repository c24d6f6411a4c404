import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';
import type { Company } from './company.entity.js';

export const SUBSCRIPTION_STATUSES = ['TRIAL', 'TRIAL_WILL_END', 'TRIAL_WITH_PAYMENT_METHOD', 'ACTIVE', 'PAST_DUE', 'CANCELED', 'INCOMPLETE'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

@Entity('subscriptions')
@Index(['companyId', 'createdAt'])
export class Subscription {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @ManyToOne('Company', 'subscriptions', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: Company;

  @Column('text')
  status: SubscriptionStatus;

  @CreatedAt()
  createdAt: Date;
}
