import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EventEnvelopeDto } from '../common/events/event-envelope.dto.js';
import { EVENT_TYPES } from '../common/events/events.service.js';

@ApiSchema({
  name: 'Event',
  description:
    "Something that changed in a company: the events API lists them, and a webhook's body is one (the same members). `data` is the object as the API answered it when the event was recorded.",
})
export class EventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: EVENT_TYPES, example: 'document.created' })
  type: string;

  @ApiProperty({ enum: EVENT_TYPES, description: 'The same as `type`, the member the first webhook bodies named it by.', example: 'document.created' })
  event: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      '`document.*`: the Document with every member expanded (`document.deleted`: as it was when deleted). `transaction.created`: the Transaction, `reconciliations` expanded. `reconciliation.*`: the Reconciliation with `flow` and `transaction` expanded (`reconciliation.deleted`: as it was). `f24.*`: the F24 request.',
  })
  data: Record<string, unknown>;
}
