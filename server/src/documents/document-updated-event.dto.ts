import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DocumentDto } from './document.dto.js';

/** The body of the `document.updated` webhook (DocumentUpdatedEvent). */
@ApiSchema({ name: 'DocumentUpdatedEvent' })
export class DocumentUpdatedEventDto {
  @ApiProperty({ format: 'uuid', description: 'Event id, the same on every delivery attempt; use it to skip duplicates.' })
  id: string;

  @ApiProperty({ enum: ['document.updated'], example: 'document.updated' })
  event: 'document.updated';

  @ApiProperty({ enum: ['document.updated'], example: 'document.updated', description: 'The event type (the same as `event`).' })
  type: 'document.updated';

  @ApiProperty({ description: 'The version of the API whose representation `data` has.', example: '1.2.0' })
  api_version: string;

  @ApiProperty({ format: 'date-time', description: 'When the change took effect.' })
  created_at: string;

  @ApiProperty({ format: 'uuid' })
  company_id: string;

  @ApiProperty({ type: () => DocumentDto, description: 'The document after the change, every member expanded.' })
  data: DocumentDto;
}
