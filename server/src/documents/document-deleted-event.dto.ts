import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DocumentDto } from './document.dto.js';
import { EventEnvelopeDto } from '../common/events/event-envelope.dto.js';

/** The body of the `document.deleted` webhook (DocumentDeletedEvent). */
@ApiSchema({ name: 'DocumentDeletedEvent' })
export class DocumentDeletedEventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: ['document.deleted'], example: 'document.deleted' })
  event: 'document.deleted';

  @ApiProperty({ enum: ['document.deleted'], example: 'document.deleted', description: 'The event type (the same as `event`).' })
  type: 'document.deleted';

  @ApiProperty({
    type: () => DocumentDto,
    description:
      'The document as it was when deleted, every member expanded (its flows as they were: they were deleted with it). `version` is one past its last `document.updated` and `updated_at` is the moment of the deletion, so the version rule orders this event after every update.',
  })
  data: DocumentDto;
}
