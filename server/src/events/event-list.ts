import { EVENT_TYPES } from '../common/events/events.service.js';
import { defineList, type FieldSpec } from '../common/listing/list-spec.js';

/** The filters of both event lists: by type, document and time. */
const EVENT_FILTERS: Record<string, FieldSpec> = {
  type: { column: 'e.type', type: 'enum', values: EVENT_TYPES },
  document_id: { column: 'e.documentId', type: 'uuid', nullable: true },
  created_at: { column: 'e.createdAt', type: 'datetime' },
};

const COMMIT_ORDER = {
  alias: 'e',
  internalFields: {
    transaction_id: { column: 'e.transactionId', type: 'bigint' },
    position: { column: 'e.position', type: 'bigint' },
  },
  defaultSort: 'transaction_id,position',
} as const satisfies Omit<Parameters<typeof defineList>[0], 'filters'>;

/**
 * The list of a company's events: in commit order only (the order a poller's cursor relies on, see
 * EventReadsRepository), so it has no sort; filters by type, document and time.
 */
export const eventList = defineList({ ...COMMIT_ORDER, filters: EVENT_FILTERS });

/**
 * The integrator-wide list (`GET /events`): the same order and filters, and `company_id` to keep to some of the
 * companies (EventReadsService checks that the key may read each one it names).
 */
export const allEventsList = defineList({ ...COMMIT_ORDER, filters: { ...EVENT_FILTERS, company_id: { column: 'e.companyId', type: 'uuid' } } });
