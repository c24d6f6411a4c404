import { EVENT_TYPES } from '../common/events/events.service.js';
import { defineList } from '../common/listing/list-spec.js';

/**
 * The list of a company's events: in commit order only (the order a poller's cursor relies on, see
 * EventReadsRepository), so it has no sort; filters by type, document and time.
 */
export const eventList = defineList({
  alias: 'e',
  filters: {
    type: { column: 'e.type', type: 'enum', values: EVENT_TYPES },
    document_id: { column: 'e.documentId', type: 'uuid', nullable: true },
    created_at: { column: 'e.createdAt', type: 'datetime' },
  },
  internalFields: {
    transaction_id: { column: 'e.transactionId', type: 'bigint' },
    position: { column: 'e.position', type: 'bigint' },
  },
  defaultSort: 'transaction_id,position',
});
