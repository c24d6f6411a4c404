import { storedLowercaseEnum } from '../common/listing/api-enum.js';
import { defineList } from '../common/listing/list-spec.js';
import { DELIVERY_STATUSES } from './delivery.entity.js';

/** The list of an endpoint's deliveries: its filters and sorts. */
export const webhookDeliveryList = defineList({
  alias: 'd',
  filters: {
    status: storedLowercaseEnum('d.status', DELIVERY_STATUSES),
    event_id: { column: 'd.eventId', type: 'uuid' },
    created_at: { column: 'd.createdAt', type: 'datetime' },
  },
  sorts: { created_at: { column: 'd.createdAt', type: 'datetime' } },
  defaultSort: '-created_at',
});
