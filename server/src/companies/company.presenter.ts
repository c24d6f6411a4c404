import type { CompanyDto, SubscriptionDto } from './company.dto.js';
import type { Company } from './company.entity.js';
import type { Subscription } from './subscription.entity.js';
import { instant } from '../common/time/instant.js';

function presentSubscription(subscription: Subscription): SubscriptionDto {
  return { created_at: instant(subscription.createdAt), status: subscription.status };
}

/** A company; `subscriptions` when the expansion was asked for (its rows, possibly none), else null. */
export function presentCompany(company: Company, subscriptions: Subscription[] | null): CompanyDto {
  return {
    id: company.id,
    name: company.name,
    vat_number: company.vatNumber,
    country: company.country,
    fiscal_regime: company.fiscalRegime,
    subscriptions: subscriptions ? subscriptions.map(presentSubscription) : null,
  };
}
