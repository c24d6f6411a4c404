import type { EntityManager } from 'typeorm';
import type { Channel, MailMessage } from './delivery.entity.js';
import type { RecordedEvent } from '../common/events/event.presenter.js';

/** A delivery claimed by the engine, with what its channel needs to send it (loaded in the claim's one query). */
export interface ClaimedDelivery {
  id: string;
  /** The claim that holds it (deliveries.claim_id): the attempt is recorded only while it still does. */
  claim: string;
  channel: Channel;
  /** Attempts already made in this schedule. */
  attempts: number;
  /** An e-mail's message (null on the webhook channel, whose composed messages come as `event`). */
  message: MailMessage | null;
  endpoint: {
    id: string;
    integratorId: string;
    url: string;
    /** What the endpoint may receive (webhooks/event-permissions.ts). */
    permissions: string[];
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: Date | null;
    failingSince: Date | null;
    updatedAt: Date;
  } | null;
  /** A webhook's event: of the outbox, or composed up front (a test event: about no company, `companyId` null). */
  event: RecordedEvent | null;
}

/** What one attempt came to. */
export interface AttemptResult {
  ok: boolean;
  attemptedAt: Date;
  durationMs: number;
  /** The status the other side answered (HTTP, or SMTP's reply code); null when it never answered. */
  responseStatus: number | null;
  /** The first 1 KB of the answer. */
  responseBody: string | null;
  error: string | null;
  /** The other side asked not to be tried again sooner (Retry-After). */
  retryAfterMs?: number;
  /** The other side wants nothing more (410 Gone): the channel stops sending there. */
  gone?: boolean;
  /** The other side refused for good (an SMTP 5xx): no retry, the delivery has failed. */
  permanent?: boolean;
  /** Cut off before it ended: the other side may have received it (recorded as `unknown`, retried as a failure). */
  unknown?: boolean;
}

export interface Outcome {
  delivery: ClaimedDelivery;
  result: AttemptResult;
}

/**
 * A channel's way out (the port): the engine claims due deliveries, hands each to its channel's sender, and records
 * what came of it. A sender bounds its own attempts (its network timeouts) within `attemptLimitMs`. `settle` runs in the transaction that records a batch's attempts, for what follows from them on the
 * channel's side (a webhook endpoint's health).
 */
export interface DeliverySender {
  readonly channel: Channel;
  /** Waits before each retry, in milliseconds; after the last, the delivery has failed. */
  readonly retrySchedule: readonly number[];
  /** The longest an attempt may take: the engine cuts it off (aborting `signal`) past this, and leases for longer. */
  readonly attemptLimitMs: number;
  /** Attempts of this channel one worker keeps in flight at once. */
  readonly concurrency: number;
  send(delivery: ClaimedDelivery, signal: AbortSignal): Promise<AttemptResult>;
  settle?(manager: EntityManager, outcomes: Outcome[]): Promise<void>;
}

/** Injection token of the senders the worker's engine serves. */
export const DELIVERY_SENDERS = Symbol('DELIVERY_SENDERS');

/** The first 1 KB of an answer, as text. */
export const RESPONSE_EXCERPT_BYTES = 1024;
