import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../common/auth/auth-context.js';
import { ApiError } from '../common/errors/api-error.js';
import { presentEvent, type EventBody } from '../common/events/event.presenter.js';
import { EVENT_TYPES } from '../common/events/events.service.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { EVENT_PERMISSIONS, receives } from '../webhooks/event-permissions.js';
import { eventList } from './event-list.js';
import { EventReadsRepository } from './event-reads.repository.js';

/**
 * The events API: any key lists the events whose objects it may read (EVENT_PERMISSIONS, the rule webhook endpoints
 * follow), as Stripe lets any key list the events it could read; the others are left out, not refused.
 */
@Injectable()
export class EventReadsService {
  constructor(private readonly repository: EventReadsRepository) {}

  async list(auth: AuthContext, companyId: string, params: QueryParams): Promise<Page<EventBody>> {
    const query = parseListQuery(params, eventList);
    const readable = EVENT_TYPES.filter((type) => receives(auth.permissions, type));
    if (!readable.length) return page([], null, query.pageSize);
    const { rows, cursor } = await this.repository.page(companyId, readable, query);
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
