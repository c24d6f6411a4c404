import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainEvent } from '../common/events/event.entity.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { isUuid } from '../common/validation/uuid.js';
import { eventList } from './event-list.js';

/**
 * Only the events of transactions older than the statement's snapshot's xmin: every transaction that started before
 * it has ended, so no event can commit later with a smaller transaction id. Commit order is not the order of
 * `created_at` nor of a sequence (both are taken before commit, and a transaction that started later may commit
 * first); ordered by transaction id and served only below the xmin, a page never has an event appear later before
 * its cursor. The cost: an event is listed once every transaction older than its own has ended, so a long
 * transaction anywhere in the cluster delays the list (never the webhooks, which the fan-out sends as events commit).
 */
const COMMITTED_BEFORE_EVERY_RUNNING = 'e.transactionId < CAST(CAST(pg_snapshot_xmin(pg_current_snapshot()) AS text) AS bigint)';

/** The events API's reads of the outbox (its writes are EventsRepository's, its fan-out DeliveriesRepository's). */
@Injectable()
export class EventReadsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * One page of the events of the `companies` (at least one: the company's list names one, the integrator-wide list
   * the key's) of the `readable` types, in commit order (transaction id, then recording), with a cursor after its last
   * event even when it is the last page (a poller resumes from it). Each company seeks its own range of
   * `events_in_commit_order` and the pages are merged (fetchPage's `eachOf`), so the cost does not grow with other
   * companies' events.
   */
  @GenerateSql({ params: [[DummyValue.COMPANY_ID], ['document.updated', 'document.deleted'], parseListQuery({}, eventList)] })
  page(companies: readonly string[], readable: readonly string[], query: ListQuery): Promise<{ rows: DomainEvent[]; cursor: string | null }> {
    const base = this.db
      .getRepository(DomainEvent)
      .createQueryBuilder('e')
      .where('e.type IN (:...readable)', { readable: [...readable] })
      .andWhere(COMMITTED_BEFORE_EVERY_RUNNING);
    // `query` may come from either list (eventList or allEventsList: one alias, no joins, so one ListSpec builds both).
    return fetchPage(base, eventList, query, { cursorAtEnd: true, eachOf: { column: 'e.companyId', type: 'uuid', keys: companies } });
  }

  /** An event by id, whichever company it is of (the service tells another company's apart); null for none. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async find(id: string): Promise<DomainEvent | null> {
    if (!isUuid(id)) return null;
    return this.db.getRepository(DomainEvent).findOneBy({ id: id.toLowerCase() });
  }
}
