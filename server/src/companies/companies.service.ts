import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../common/auth/auth-context.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { CompaniesRepository, companyList } from './companies.repository.js';
import type { CompanyDto } from './company.dto.js';
import { presentCompany } from './company.presenter.js';

@Injectable()
export class CompaniesService {
  constructor(private readonly companies: CompaniesRepository) {}

  /** The companies granted to the caller's integrator, and no other. */
  async list(auth: AuthContext, params: QueryParams): Promise<Page<CompanyDto>> {
    const query = parseListQuery(params, companyList);
    const granted = [...auth.companyIds];
    if (granted.length === 0) return page([], null, query.pageSize);
    const { rows, cursor } = await this.companies.page(granted, query);
    const subscriptions = query.expand.has('subscriptions') ? await this.companies.subscriptionsOf(rows.map((c) => c.id)) : null;
    return page(
      rows.map((company) => presentCompany(company, subscriptions ? (subscriptions.get(company.id) ?? []) : null)),
      cursor,
      query.pageSize,
    );
  }
}
