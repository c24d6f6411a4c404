import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DocumentDto } from './document.dto.js';
import { EventEnvelopeDto } from '../common/events/event-envelope.dto.js';

/** The body of the `document.updated` webhook (DocumentUpdatedEvent). */
@ApiSchema({ name: 'DocumentUpdatedEvent' })
export class DocumentUpdatedEventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: ['document.updated'], example: 'document.updated' })
  event: 'document.updated';

  @ApiProperty({ enum: ['document.updated'], example: 'document.updated', description: 'The event type (the same as `event`).' })
  type: 'document.updated';

  @ApiProperty({ type: () => DocumentDto, description: 'The document after the change, every member expanded.' })
  data: DocumentDto;
}
