import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthContext } from '../common/auth/auth-context.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import type { CompanyDto, SubscriptionDto } from './company.dto.js';
import { Company } from './company.entity.js';
import { Subscription } from './subscription.entity.js';

export const companyList = defineList({
  alias: 'c',
  defaultSort: 'created_at',
  internalFields: { created_at: { column: 'c.createdAt', type: 'datetime' } },
  expansions: ['subscriptions'],
});

function presentSubscription(subscription: Subscription): SubscriptionDto {
  return { created_at: subscription.createdAt.toISOString(), status: subscription.status };
}

@Injectable()
export class CompaniesService {
  constructor(
    @InjectRepository(Company) private readonly companies: Repository<Company>,
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
  ) {}

  /** The companies granted to the caller's integrator, and no other. */
  async list(auth: AuthContext, params: QueryParams): Promise<Page<CompanyDto>> {
    const query = parseListQuery(params, companyList);
    const granted = [...auth.companyIds];
    if (granted.length === 0) return page([], null, query.pageSize);
    const base = this.companies.createQueryBuilder('c').where('c.id IN (:...granted)', { granted });
    const { rows, cursor } = await fetchPage(base, companyList, query);
    const subscriptions = query.expand.has('subscriptions') ? await this.subscriptionsOf(rows.map((c) => c.id)) : null;
    return page(
      rows.map((company) => ({
        id: company.id,
        name: company.name,
        vat_number: company.vatNumber,
        country: company.country,
        fiscal_regime: company.fiscalRegime,
        subscriptions: subscriptions ? (subscriptions.get(company.id) ?? []).map(presentSubscription) : null,
      })),
      cursor,
      query.pageSize,
    );
  }

  private async subscriptionsOf(companyIds: string[]): Promise<Map<string, Subscription[]>> {
    const grouped = new Map<string, Subscription[]>();
    if (companyIds.length === 0) return grouped;
    const rows = await this.subscriptions
      .createQueryBuilder('s')
      .where('s.companyId IN (:...companyIds)', { companyIds })
      .orderBy('s.createdAt', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getMany();
    for (const row of rows) grouped.set(row.companyId, [...(grouped.get(row.companyId) ?? []), row]);
    return grouped;
  }
}
