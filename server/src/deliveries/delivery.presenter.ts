import { apiEnum } from '../common/listing/api-enum.js';
import type { DeliveryAttempt } from './delivery-attempt.entity.js';
import type { LoadedDelivery } from './deliveries.repository.js';
import type { WebhookMessage } from './delivery.entity.js';
import { instant, instantOrNull } from '../common/time/instant.js';

/** A webhook delivery as the API, the CLI and the portal show it (the `WebhookDelivery` schema). */
export interface WebhookDeliveryState {
  id: string;
  endpoint_id: string;
  event_id: string;
  event: string;
  /** Null for a test event, which is about no company. */
  company_id: string | null;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  next_attempt_at: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: Array<{
    attempted_at: string;
    outcome: 'SUCCEEDED' | 'FAILED' | 'UNKNOWN';
    duration_ms: number;
    response_status: number | null;
    response_body: string | null;
    error: string | null;
  }>;
}

/** An e-mail's state as an invoice share shows it. */
export interface MailState {
  status: 'QUEUED' | 'SENT' | 'FAILED';
  attempts: number;
  failure_reason: string | null;
  completed_at: string | null;
}

/** The one presenter of delivery state: a webhook delivery with its event and every attempt. */
export function presentWebhookDelivery({ delivery, event, attempts }: LoadedDelivery): WebhookDeliveryState {
  // A test event is composed up front: its id and type are in the delivery's message.
  const composed = delivery.eventId ? null : (delivery.message as WebhookMessage | null);
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId!,
    event_id: delivery.eventId ?? composed!.id,
    event: event?.type ?? composed!.event,
    company_id: event?.companyId ?? null,
    status: apiEnum(delivery.status),
    next_attempt_at: delivery.status === 'pending' ? instant(delivery.nextAttemptAt) : null,
    created_at: instant(delivery.createdAt),
    completed_at: instantOrNull(delivery.completedAt),
    attempts: attempts.map((a) => ({
      attempted_at: instant(a.attemptedAt),
      outcome: apiEnum(a.outcome),
      duration_ms: a.durationMs,
      response_status: a.responseStatus,
      response_body: a.responseBody,
      error: a.error,
    })),
  };
}

/** An e-mail: queued, sent or failed, and why its last attempt failed while it is not sent. */
export function presentMailState({ delivery, attempts }: LoadedDelivery): MailState {
  const status = delivery.status === 'succeeded' ? 'SENT' : delivery.status === 'failed' ? 'FAILED' : 'QUEUED';
  const last: DeliveryAttempt | undefined = attempts.at(-1);
  const failed = last && last.outcome === 'failed' && status !== 'SENT';
  return {
    status,
    attempts: delivery.attempts,
    failure_reason: failed ? [last.responseBody, last.error].filter(Boolean).join(' — ') || 'the mail server refused the message' : null,
    completed_at: instantOrNull(delivery.completedAt),
  };
}
