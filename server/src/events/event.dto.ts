import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EVENT_TYPES } from '../common/events/events.service.js';

@ApiSchema({
  name: 'Event',
  description:
    "Something that changed in a company: the events API lists them, and a webhook's body is one (the same members). `data` is the object as the API answered it when the event was recorded.",
})
export class EventDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The event id: also `webhook-id` of every webhook delivery of it.',
    example: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  })
  id: string;

  @ApiProperty({ enum: EVENT_TYPES, example: 'document.created' })
  type: string;

  @ApiProperty({ enum: EVENT_TYPES, description: 'The same as `type`, the member the first webhook bodies named it by.', example: 'document.created' })
  event: string;

  @ApiProperty({ description: 'The version of the API whose representation `data` has.', example: '1.2.0' })
  api_version: string;

  @ApiProperty({ format: 'uuid' })
  company_id: string;

  @ApiProperty({ format: 'date-time', description: 'When the change took effect.' })
  created_at: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      '`document.*`: the Document with every member expanded (`document.deleted`: as it was when deleted). `transaction.created`: the Transaction, `reconciliations` expanded. `reconciliation.*`: the Reconciliation with `flow` and `transaction` expanded (`reconciliation.deleted`: as it was). `f24.*`: the F24 request.',
  })
  data: Record<string, unknown>;
}
