import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { HTTP_METHODS } from './request-logs.repository.js';

@ApiSchema({
  name: 'RequestLog',
  description: "One of the integrator's failed requests (4xx or 5xx) of the last 7 days. Never its headers, body or query string.",
})
export class RequestLogDto {
  @ApiProperty({ format: 'uuid', example: '6b1f0c2e-5a4d-4e7b-9c3a-1d2e3f4a5b6c' })
  id: string;

  @ApiProperty({ format: 'date-time', description: 'When the request arrived.', example: '2026-11-28T09:30:00.123Z' })
  created_at: string;

  @ApiProperty({ enum: HTTP_METHODS, example: 'GET' })
  method: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The route as the API reference writes it; null when the path matched no route.',
    example: '/companies/{company_id}/documents/{id}',
  })
  route: string | null;

  @ApiProperty({
    description: 'The path requested, without its query string.',
    example: '/api/v1/companies/3f0c5a2e-8a4b-4d6e-9b1f-2c7d8e9fa012/documents/0c1d',
  })
  path: string;

  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, example: 404 })
  status: number;

  @ApiProperty({ type: [String], description: "The `code` of each item of the answer's `errors`, in order.", example: ['not_found'] })
  error_codes: string[];

  @ApiProperty({ description: 'The X-Request-Id of the answer (and its `meta.request_id`).', example: '7d3c2a10-4a5b-4c6d-8e9f-0a1b2c3d4e5f' })
  request_id: string;

  @ApiProperty({ description: 'The public start of the API key that sent it; never the key.', example: 'fls_dev_AbCd1234' })
  key_prefix: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The company in the path, if any.',
    example: '3f0c5a2e-8a4b-4d6e-9b1f-2c7d8e9fa012',
  })
  company_id: string | null;

  @ApiProperty({ type: 'number', description: 'Time from the request to the answer, in milliseconds.', example: 4.2 })
  duration_ms: number;
}
