import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DocumentDto } from './document.dto.js';

/** The body of the `document.deleted` webhook (DocumentDeletedEvent). */
@ApiSchema({ name: 'DocumentDeletedEvent' })
export class DocumentDeletedEventDto {
  @ApiProperty({ format: 'uuid', description: 'Event id, the same on every delivery attempt; use it to skip duplicates.' })
  id: string;

  @ApiProperty({ enum: ['document.deleted'], example: 'document.deleted' })
  event: 'document.deleted';

  @ApiProperty({ enum: ['document.deleted'], example: 'document.deleted', description: 'The event type (the same as `event`).' })
  type: 'document.deleted';

  @ApiProperty({ description: 'The version of the API whose representation `data` has.', example: '1.2.0' })
  api_version: string;

  @ApiProperty({ format: 'date-time', description: 'When the change took effect.' })
  created_at: string;

  @ApiProperty({ format: 'uuid' })
  company_id: string;

  @ApiProperty({
    type: () => DocumentDto,
    description:
      'The document as it was when deleted, every member expanded (its flows as they were: they were deleted with it). `version` is one past its last `document.updated` and `updated_at` is the moment of the deletion, so the version rule orders this event after every update.',
  })
  data: DocumentDto;
}
