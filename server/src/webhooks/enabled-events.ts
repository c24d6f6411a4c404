import { ApiError, bodyPointer } from '../common/errors/api-error.js';
import type { EventType } from '../common/events/events.service.js';
import { EVENT_PERMISSIONS, REGISTERED_EVENT_TYPES } from './event-permissions.js';

/** `enabled_events` of an endpoint that receives every event type, those added later too (Stripe's `*`); the default. */
export const ALL_EVENTS = '*';

/** Every event type an endpoint may choose: the catalogue's (event-permissions.ts), in its order. */
export const EVENT_TYPES = Object.keys(EVENT_PERMISSIONS) as EventType[];

/** What `enabled_events` may list. */
export const ENABLED_EVENT_CHOICES: readonly string[] = [ALL_EVENTS, ...EVENT_TYPES];

/**
 * The type of the event `POST /webhook-endpoints/{id}/test` sends. It is not in the catalogue: no endpoint chooses it,
 * the fan-out never sends it, and only the endpoint it was asked for receives it.
 */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The event types a delivery may carry (the `event` of a delivery). */
export const DELIVERED_EVENT_TYPES: readonly string[] = [...EVENT_TYPES, TEST_EVENT_TYPE];

/**
 * The stored form of a requested `enabled_events`: `["*"]`, or known types, each once, in the catalogue's order. An
 * unknown type (the test event's among them) is 422 `unknown_event_type` naming the known ones (a value, not the
 * request's form, is wrong: the errors page's rule); `*` beside types is 422 too, as it would silently mean all of them.
 */
export function parseEnabledEvents(requested: readonly string[]): string[] {
  requested.forEach((type, index) => {
    if (!ENABLED_EVENT_CHOICES.includes(type)) {
      throw ApiError.of(
        'unknown_event_type',
        `"${type}" is not an event type an endpoint can choose; the known types are ${EVENT_TYPES.join(', ')}, or "*" for all of them.`,
        bodyPointer('enabled_events', index),
      );
    }
  });
  if (requested.includes(ALL_EVENTS)) {
    if (requested.some((type) => type !== ALL_EVENTS)) {
      throw ApiError.of('unprocessable_entity', '"*" already means every event type: send it alone, or list the types.', bodyPointer('enabled_events'));
    }
    return [ALL_EVENTS];
  }
  return EVENT_TYPES.filter((type) => requested.includes(type));
}

/** Whether an endpoint enabled for `enabled` receives events of `type` (its recorded permissions permitting). */
export function isEnabledFor(enabled: readonly string[], type: string): boolean {
  return enabled.includes(ALL_EVENTS) || enabled.includes(type);
}

/**
 * The event types whose read permission registering an endpoint enabled for `enabled` needs: those it names, or for
 * `*` the types every endpoint is registered for (REGISTERED_EVENT_TYPES; the others reach it only when its recorded
 * permissions read them).
 */
export function registeredTypes(enabled: readonly string[]): readonly EventType[] {
  return enabled.includes(ALL_EVENTS) ? REGISTERED_EVENT_TYPES : EVENT_TYPES.filter((type) => enabled.includes(type));
}
