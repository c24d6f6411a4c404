import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DocumentDto } from '../documents/document.dto.js';
import { ReconciliationDto } from '../transactions/reconciliation.dto.js';
import { TransactionDto } from '../transactions/transaction.dto.js';
import { EventEnvelopeDto } from '../common/events/event-envelope.dto.js';

/** The body of the `document.created` webhook and event. */
@ApiSchema({ name: 'DocumentCreatedEvent' })
export class DocumentCreatedEventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: ['document.created'], example: 'document.created' })
  event: 'document.created';

  @ApiProperty({ enum: ['document.created'], example: 'document.created', description: 'The event type (the same as `event`).' })
  type: 'document.created';

  @ApiProperty({ type: () => DocumentDto, description: 'The document as created, every member expanded (as getDocument answers it).' })
  data: DocumentDto;
}

/** The body of the `transaction.created` webhook and event. */
@ApiSchema({ name: 'TransactionCreatedEvent' })
export class TransactionCreatedEventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: ['transaction.created'], example: 'transaction.created' })
  event: 'transaction.created';

  @ApiProperty({ enum: ['transaction.created'], example: 'transaction.created', description: 'The event type (the same as `event`).' })
  type: 'transaction.created';

  @ApiProperty({
    type: () => TransactionDto,
    description: 'The bank transaction as imported, `reconciliations` expanded (empty: a reconciliation made from it is an event of its own).',
  })
  data: TransactionDto;
}

/** The body of the `reconciliation.created` and `reconciliation.deleted` webhooks and events. */
@ApiSchema({ name: 'ReconciliationEvent' })
export class ReconciliationEventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: ['reconciliation.created', 'reconciliation.deleted'], example: 'reconciliation.created' })
  event: 'reconciliation.created' | 'reconciliation.deleted';

  @ApiProperty({
    enum: ['reconciliation.created', 'reconciliation.deleted'],
    example: 'reconciliation.created',
    description: 'The event type (the same as `event`).',
  })
  type: 'reconciliation.created' | 'reconciliation.deleted';

  @ApiProperty({
    type: () => ReconciliationDto,
    description: 'The reconciliation with `flow` and `transaction` expanded; for `reconciliation.deleted`, as it was.',
  })
  data: ReconciliationDto;
}
