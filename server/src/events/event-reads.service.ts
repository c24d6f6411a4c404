import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../common/auth/auth-context.js';
import { ApiError, queryPointer } from '../common/errors/api-error.js';
import { presentEvent, type EventBody } from '../common/events/event.presenter.js';
import { EVENT_TYPES } from '../common/events/events.service.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery, type QueryParams } from '../common/listing/list-query.js';
import { EVENT_PERMISSIONS, receives } from '../webhooks/event-permissions.js';
import { allEventsList, eventList } from './event-list.js';
import { EventReadsRepository } from './event-reads.repository.js';

/**
 * The events API: any key lists the events whose objects it may read (EVENT_PERMISSIONS, the rule webhook endpoints
 * follow), as Stripe lets any key list the events it could read; the others are left out, not refused.
 */
@Injectable()
export class EventReadsService {
  constructor(private readonly repository: EventReadsRepository) {}

  /** The company's events (the CompanyAccessGuard has checked that the key's integrator was granted it). */
  list(auth: AuthContext, companyId: string, params: QueryParams): Promise<Page<EventBody>> {
    return this.page(auth, [companyId], parseListQuery(params, eventList));
  }

  /**
   * The events of every company the key may read (its integrator's grants), or of those `filter[company_id]` or
   * `filter[company_id__in]` keeps. Naming a company the key may not read is 403 `forbidden`, whether it exists or
   * not, as `/companies/{company_id}/…` answers it: nothing is learnt about other companies, and a mistyped id is
   * not taken for a company with no events.
   */
  listAll(auth: AuthContext, params: QueryParams): Promise<Page<EventBody>> {
    const query = parseListQuery(params, allEventsList);
    let companies = [...auth.companyIds];
    for (const filter of query.filters) {
      if (filter.field !== 'company_id' || typeof filter.value === 'boolean') continue;
      const named = typeof filter.value === 'string' ? [filter.value] : filter.value;
      const ungranted = named.find((id) => !auth.companyIds.has(id));
      if (ungranted) {
        throw ApiError.forbidden(
          `This API key has no access to the company ${ungranted}.`,
          queryPointer(`filter[company_id${filter.operator === 'eq' ? '' : `__${filter.operator}`}]`),
        );
      }
      // Only the named companies are looked into (the condition itself is also in the query, with the others').
      if (filter.operator === 'eq' || filter.operator === 'in') companies = companies.filter((id) => named.includes(id));
    }
    return this.page(auth, companies, query);
  }

  private async page(auth: AuthContext, companies: readonly string[], query: ListQuery): Promise<Page<EventBody>> {
    const readable = EVENT_TYPES.filter((type) => receives(auth.permissions, type));
    if (!readable.length || !companies.length) return page([], null, query.pageSize);
    const { rows, cursor } = await this.repository.page(companies, readable, query);
    return page(rows.map(presentEvent), cursor, query.pageSize);
  }

  /**
   * 404 for no such event; 403 for another company's, as every resource of the API answers an id of another company
   * under one's own; 403 for one whose object the key may not read.
   */
  async get(auth: AuthContext, companyId: string, id: string): Promise<EventBody> {
    const event = await this.repository.find(id);
    const needed = event && (EVENT_PERMISSIONS as Record<string, string | undefined>)[event.type];
    if (!event || !needed) throw ApiError.notFound('Event');
    if (event.companyId !== companyId) throw ApiError.forbidden(`Event ${event.id} belongs to another company.`);
    if (!receives(auth.permissions, event.type)) throw ApiError.insufficientPermission(needed, `a ${event.type} event carries that object`);
    return presentEvent(event);
  }
}
