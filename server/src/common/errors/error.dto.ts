import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'IntegrationErrorSource' })
export class ErrorSourceDto {
  @ApiProperty({
    description:
      'JSON Pointer (RFC 6901) to the offending member of the request body (e.g. `/amount/currency`), or `/query/NAME` for a query parameter.',
    example: '/query/filter[status]',
  })
  pointer: string;
}

@ApiSchema({ name: 'IntegrationErrorItem' })
export class ErrorItemDto {
  @ApiProperty({ description: 'Stable, snake_case error type that software can branch on.', example: 'invalid_query_parameter' })
  code: string;

  @ApiProperty({ description: 'Short summary of the error type.', example: 'Invalid query parameter' })
  title: string;

  @ApiProperty({
    description: 'Human-readable explanation of this occurrence.',
    nullable: true,
    type: String,
    example: 'status must be one of DRAFT, CREATED, SENT, DELIVERED, NOT_DELIVERED, DISCARDED, REFUSED, got "draft".',
  })
  detail: string | null;

  @ApiPropertyOptional({ type: ErrorSourceDto, description: 'Where in the request the error is; omitted when it is not about one member.' })
  source?: ErrorSourceDto;
}

/** The integration error body: every error answer of the API has this shape. */
@ApiSchema({ name: 'IntegrationError' })
export class IntegrationErrorDto {
  @ApiProperty({ type: [ErrorItemDto] })
  errors: ErrorItemDto[];
}
