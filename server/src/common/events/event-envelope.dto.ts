import { ApiProperty } from '@nestjs/swagger';

/**
 * The members every event's body has around its `type` and `data` (event.presenter.ts writes them): the events API's
 * Event and each webhook body's DTO extend it with their types and the schema of their `data` (the test event without
 * `company_id`, which is null there).
 */
export class EventEnvelopeDto {
  @ApiProperty({
    format: 'uuid',
    description: 'Event id: the `webhook-id` of every delivery attempt of it, the same each time; use it to skip duplicates.',
    example: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  })
  id: string;

  @ApiProperty({ description: 'The version of the API whose representation `data` has.', example: '1.2.0' })
  api_version: string;

  @ApiProperty({ format: 'date-time', description: 'When the change took effect.' })
  created_at: string;

  @ApiProperty({ format: 'uuid' })
  company_id: string;
}
