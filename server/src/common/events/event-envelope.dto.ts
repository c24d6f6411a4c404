import { ApiProperty } from '@nestjs/swagger';

/**
 * The members every company event's body has around its `type` and `data` (event.presenter.ts writes them); each
 * event's DTO extends it with its type and the schema of its `data`.
 */
export abstract class EventEnvelopeDto {
  @ApiProperty({ format: 'uuid', description: 'Event id, the same on every delivery attempt; use it to skip duplicates.' })
  id: string;

  @ApiProperty({ description: 'The version of the API whose representation `data` has.', example: '1.2.0' })
  api_version: string;

  @ApiProperty({ format: 'date-time', description: 'When the change took effect.' })
  created_at: string;

  @ApiProperty({ format: 'uuid' })
  company_id: string;
}
