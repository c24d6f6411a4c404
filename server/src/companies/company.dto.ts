import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription.entity.js';

@ApiSchema({ name: 'Subscription' })
export class SubscriptionDto {
  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' })
  created_at: string;

  @ApiProperty({
    enum: SUBSCRIPTION_STATUSES,
    description:
      'TRIAL, TRIAL_WILL_END (trial ends soon), TRIAL_WITH_PAYMENT_METHOD, ACTIVE, PAST_DUE (trial ended, no valid payment method), CANCELED, INCOMPLETE (payment failed).',
    example: 'ACTIVE',
  })
  status: SubscriptionStatus;
}

@ApiSchema({ name: 'Company' })
export class CompanyDto {
  @ApiProperty({ format: 'uuid', example: '3f0c5a2e-8a4b-4d6e-9b1f-2c7d8e9fa012' })
  id: string;

  @ApiProperty({ example: 'Rossi Forniture S.r.l.' })
  name: string;

  @ApiProperty({ nullable: true, type: String, example: 'IT01234567890' })
  vat_number: string | null;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country code.', example: 'IT' })
  country: string;

  @ApiProperty({ description: 'FatturaPA tax regime (RegimeFiscale), RF01 to RF20.', pattern: '^RF\\d{2}$', example: 'RF01' })
  fiscal_regime: string;

  @ApiProperty({
    type: () => [SubscriptionDto],
    nullable: true,
    description: "The company's subscriptions, newest first; null unless `expand=subscriptions`.",
  })
  subscriptions: SubscriptionDto[] | null;
}
