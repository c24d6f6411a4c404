import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
import { EventEnvelopeDto } from '../common/events/event-envelope.dto.js';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../common/validation/optional.js';
import { apiEnumValues } from '../common/listing/api-enum.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../deliveries/delivery.entity.js';
import { ATTEMPT_OUTCOMES, type AttemptOutcome } from '../deliveries/delivery-attempt.entity.js';
import { DISABLED_REASONS, type DisabledReason } from './webhook-endpoint.entity.js';
import { ALL_EVENTS, DELIVERED_EVENT_TYPES, ENABLED_EVENT_CHOICES, TEST_EVENT_TYPE } from './enabled-events.js';
import type { EventType } from '../common/events/events.service.js';

const URL_EXAMPLE = 'https://erp.example.it/webhooks/flusso';
const ENABLED_EVENTS_DESCRIPTION = `The event types the endpoint receives: \`["${ALL_EVENTS}"]\` (every type, also those added later) or a list of types. It receives an event of a chosen type only if its \`permissions\` read it. The test event (\`${TEST_EVENT_TYPE}\`) is not chosen: it goes only where \`POST /webhook-endpoints/{id}/test\` sends it.`;

/** `enabled_events` in a request: validated here as a list of strings, against the catalogue by enabled-events.ts. */
function EnabledEventsMember(): PropertyDecorator {
  return (target, key) => {
    OptionalNotNull()(target, key);
    IsArray({ message: 'enabled_events must be an array of event types' })(target, key);
    ArrayMinSize(1, { message: 'enabled_events must name at least one event type, or "*" (to receive nothing, disable the endpoint)' })(target, key);
    ArrayMaxSize(ENABLED_EVENT_CHOICES.length, { message: `enabled_events may name at most ${ENABLED_EVENT_CHOICES.length} event types` })(target, key);
    IsString({ each: true, message: 'enabled_events must hold event types (strings)' })(target, key);
    MaxLength(100, { each: true, message: 'an event type is at most 100 characters long' })(target, key);
  };
}

@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid', example: '8a1f0c52-3d4e-4b6f-9a7b-1c2d3e4f5a6b' })
  id: string;

  @ApiProperty({ description: 'Where events are sent (HTTPS; in development also http and loopback).', example: URL_EXAMPLE })
  url: string;

  @ApiProperty({ description: 'A note of yours, to recognise the endpoint.', example: 'ERP production receiver' })
  description: string;

  @ApiProperty({ description: 'Whether events are sent to the endpoint.', example: true })
  enabled: boolean;

  @ApiProperty({
    type: [String],
    description:
      'The permissions of the API key that registered the endpoint or last changed its URL (`*` for an endpoint an operator registered). The endpoint receives only the events they may read: `document.updated` and `document.deleted` need `documents:read` (see Authentication, "Permissions").',
    example: ['documents:read', 'webhooks:write'],
  })
  permissions: string[];

  @ApiProperty({ enum: ENABLED_EVENT_CHOICES, isArray: true, description: ENABLED_EVENTS_DESCRIPTION, example: [ALL_EVENTS] })
  enabled_events: string[];

  @ApiProperty({
    enum: apiEnumValues(DISABLED_REASONS),
    nullable: true,
    description:
      'Why a disabled endpoint is disabled: `REQUESTED` (by you or an operator), `GONE` (it answered 410 Gone), `FAILING` (every attempt failed for days). Null while enabled.',
    example: null,
  })
  disabled_reason: Uppercase<DisabledReason> | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  disabled_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Since when every attempt to the endpoint has failed; null after a success.',
    example: null,
  })
  failing_since: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-03-02T09:30:00.000Z' })
  created_at: string;

  @ApiProperty({ format: 'date-time', example: '2026-03-02T09:30:00.000Z' })
  updated_at: string;
}

@ApiSchema({ name: 'WebhookEndpointWithSecret' })
export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({
    description:
      'The signing secret, shown only in this answer (creation and rotation): store it with your other secrets. Verify signatures with it using a Standard Webhooks library.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

@ApiSchema({ name: 'WebhookEndpointCreatePayload' })
export class CreateWebhookEndpointDto {
  @ApiProperty({ description: 'The URL that receives events.', example: URL_EXAMPLE, maxLength: 2000 })
  @IsDefined({ message: 'url is required' })
  @IsString({ message: 'url must be a string' })
  @MaxLength(2000, { message: 'url must be at most 2000 characters long' })
  url: string;

  @ApiPropertyOptional({ description: 'A note of yours.', example: 'ERP production receiver', maxLength: 500, default: '' })
  @OptionalNotNull()
  @IsString({ message: 'description must be a string' })
  @MaxLength(500, { message: 'description must be at most 500 characters long' })
  description?: string;

  @ApiPropertyOptional({ description: 'Create the endpoint disabled with `false`.', default: true })
  @OptionalNotNull()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;

  @ApiPropertyOptional({
    enum: ENABLED_EVENT_CHOICES,
    isArray: true,
    description: `${ENABLED_EVENTS_DESCRIPTION} The key needs the read permission of every type named (403 \`insufficient_permission\`); an unknown type is 422 \`unknown_event_type\`.`,
    default: [ALL_EVENTS],
    example: ['document.deleted'] satisfies EventType[],
  })
  @EnabledEventsMember()
  enabled_events?: string[];
}

@ApiSchema({ name: 'WebhookEndpointUpdatePayload' })
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ description: 'A new URL; checked like a new endpoint.', example: URL_EXAMPLE, maxLength: 2000 })
  @OptionalNotNull()
  @IsString({ message: 'url must be a string' })
  @MaxLength(2000, { message: 'url must be at most 2000 characters long' })
  url?: string;

  @ApiPropertyOptional({ example: 'ERP production receiver', maxLength: 500 })
  @OptionalNotNull()
  @IsString({ message: 'description must be a string' })
  @MaxLength(500, { message: 'description must be at most 500 characters long' })
  description?: string;

  @ApiPropertyOptional({
    description: '`false` stops sending events to the endpoint; `true` sends them again (also after Flusso disabled it) and resumes pending deliveries.',
    example: true,
  })
  @OptionalNotNull()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;

  @ApiPropertyOptional({
    enum: ENABLED_EVENT_CHOICES,
    isArray: true,
    description: `The event types the endpoint receives from now on, replacing the list: \`["${ALL_EVENTS}"]\` for every type. The key needs the read permission of every type named (403 \`insufficient_permission\`), and so do the endpoint's \`permissions\` unless \`url\` changes in the same request (409 \`conflict\` otherwise: the key that registered the endpoint may not read them).`,
    example: ['document.updated', 'document.deleted'] satisfies EventType[],
  })
  @EnabledEventsMember()
  enabled_events?: string[];
}

@ApiSchema({ name: 'WebhookReplayPayload' })
export class ReplayEventDto {
  @ApiProperty({ format: 'uuid', description: 'The event to send again (the `webhook-id` and body `id` of a delivery).' })
  @IsDefined({ message: 'event_id is required' })
  @IsUUID('all', { message: 'event_id must be a uuid' })
  event_id: string;
}

@ApiSchema({ name: 'WebhookAttempt' })
export class WebhookAttemptDto {
  @ApiProperty({ format: 'date-time', example: '2026-03-02T09:30:01.250Z' })
  attempted_at: string;

  @ApiProperty({
    enum: apiEnumValues(ATTEMPT_OUTCOMES),
    description:
      '`SUCCEEDED` (your endpoint answered 2xx), `FAILED` (it answered otherwise, or not in time), `UNKNOWN` (the attempt was cut off, or the worker making it stopped, before its outcome was known: your endpoint may have received the event, and receives it again on the next attempt; deduplicate on `webhook-id`).',
    example: 'FAILED',
  })
  outcome: Uppercase<AttemptOutcome>;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'From sending the request to the end of the answer, in milliseconds.', example: 182 })
  duration_ms: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The status your endpoint answered; null when it did not answer.', example: 500 })
  response_status: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The first 1 KB of the answer body. Null when there was none, and in development for a receiver on a loopback address unless the operator turned that on (`WEBHOOK_EXPOSE_LOOPBACK_RESPONSES`).',
    example: 'Internal Server Error',
  })
  response_body: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the attempt failed when the status does not say: a timeout, a refused connection, a redirect…',
    example: null,
  })
  error: string | null;
}

@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', example: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  endpoint_id: string;

  @ApiProperty({ format: 'uuid', description: 'The event id: `webhook-id` of every attempt and `id` of the body.' })
  event_id: string;

  @ApiProperty({
    enum: DELIVERED_EVENT_TYPES,
    description: `The event's type; \`${TEST_EVENT_TYPE}\` for a test event (\`POST /webhook-endpoints/{id}/test\`).`,
    example: 'document.updated',
  })
  event: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The company the event is about; null for a test event.' })
  company_id: string | null;

  @ApiProperty({
    enum: apiEnumValues(DELIVERY_STATUSES),
    description:
      '`PENDING` (not yet received: an attempt is due at `next_attempt_at`), `SUCCEEDED` (your endpoint answered 2xx), `FAILED` (every attempt failed).',
    example: 'SUCCEEDED',
  })
  status: Uppercase<DeliveryStatus>;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due; null unless pending.' })
  next_attempt_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the delivery succeeded or failed for good.' })
  completed_at: string | null;

  @ApiProperty({ type: () => [WebhookAttemptDto], description: 'Every attempt, oldest first.' })
  attempts: WebhookAttemptDto[];
}

@ApiSchema({ name: 'WebhookTestEventData' })
export class WebhookTestEventDataDto {
  @ApiProperty({ format: 'uuid', description: 'The endpoint the test event was sent to.' })
  endpoint_id: string;

  @ApiProperty({ format: 'date-time', description: 'When `POST /webhook-endpoints/{id}/test` asked for it.', example: '2026-03-31T17:10:00.000Z' })
  requested_at: string;
}

/** The body of the test event (WebhookTestEvent): each test is a new event. */
@ApiSchema({ name: 'WebhookTestEvent' })
export class WebhookTestEventDto extends OmitType(EventEnvelopeDto, ['company_id'] as const) {
  @ApiProperty({ enum: [TEST_EVENT_TYPE], example: TEST_EVENT_TYPE })
  event: typeof TEST_EVENT_TYPE;

  @ApiProperty({ enum: [TEST_EVENT_TYPE], example: TEST_EVENT_TYPE, description: 'The event type (the same as `event`).' })
  type: typeof TEST_EVENT_TYPE;

  @ApiProperty({ type: 'null', nullable: true, description: 'Always null: a test event is about no company.', example: null })
  company_id: null;

  @ApiProperty({ type: () => WebhookTestEventDataDto })
  data: WebhookTestEventDataDto;
}
