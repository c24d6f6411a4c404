import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId, CurrentAuth, type AuthContext } from '../common/auth/auth-context.js';
import { AnyKey } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiCompanyParam, ApiIdParam } from '../common/http/path-params.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { ApiList } from '../common/listing/list.openapi.js';
import { EventDto } from './event.dto.js';
import { allEventsList, eventList } from './event-list.js';
import { EventReadsService } from './event-reads.service.js';

const WHO_READS =
  'Any key may call it; it sees the events whose objects it may read: `document.*` with `documents:read`, `transaction.created` with `transactions:read`, `reconciliation.*` with `reconciliations:read`, `f24.*` with `payments:f24:read` (each `:write` and `*` include them).';

@ApiTags('Events')
@ApiCompanyParam()
@Controller('companies/:company_id/events')
export class EventsController {
  constructor(private readonly events: EventReadsService) {}

  @Get()
  @AnyKey()
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'List events',
    description: `Lists what changed in the company, oldest first, in the order the changes were committed: keep the last \`page.cursor\` and ask again with it to get only what came after (an empty page has \`page.cursor\` null: keep the one you had). An event is listed once every change that started before it has committed, so a cursor never misses one. Events are the ones webhooks deliver, with the same members, kept for RETENTION_EVENTS_DAYS (90 days by default). ${WHO_READS} Filter with \`filter[type__in]=document.created,document.updated\`, \`filter[document_id]\`, \`filter[created_at__gte]\`.`,
  })
  @ApiList(eventList, EventDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CurrentAuth() auth: AuthContext, @CompanyId() companyId: string, @Query() query: QueryParams) {
    return this.events.list(auth, companyId, query);
  }

  @Get(':id')
  @AnyKey()
  @ApiOperation({
    operationId: 'getEvent',
    summary: 'Get an event',
    description: `One of the company's events, as listed. A key that may not read its object is answered 403 \`insufficient_permission\`. ${WHO_READS}`,
  })
  @ApiIdParam('id', 'Event id.')
  @ApiOkResponse({ type: EventDto })
  @ApiErrors(403, 404, ...COMMON_ERRORS)
  get(@CurrentAuth() auth: AuthContext, @CompanyId() companyId: string, @Param('id') id: string) {
    return this.events.get(auth, companyId, id);
  }
}

@ApiTags('Events')
@Controller('events')
export class AllEventsController {
  constructor(private readonly events: EventReadsService) {}

  @Get()
  @AnyKey()
  @ApiOperation({
    operationId: 'listAllEvents',
    summary: 'List events of every company',
    description: `Lists what changed in every company the API key's integrator has been granted, in one list, in the order the changes were committed: an integrator syncing many companies polls once instead of once per company. Paging, the cursor and the members are those of \`GET /companies/{company_id}/events\` (each event names its \`company_id\`). ${WHO_READS} Filter as that list does, and with \`filter[company_id__in]=…\` to keep to some companies: naming a company the key's integrator was not granted is 403 \`forbidden\`, whether it exists or not.`,
  })
  @ApiList(allEventsList, EventDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 403, ...COMMON_ERRORS)
  list(@CurrentAuth() auth: AuthContext, @Query() query: QueryParams) {
    return this.events.listAll(auth, query);
  }
}
