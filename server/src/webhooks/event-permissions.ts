import { allows, ALL_PERMISSIONS, type Permission } from '../common/auth/permissions.js';
import type { EventType } from '../common/events/events.service.js';

/**
 * What each event type carries, as the read permission a key needs to see it through the API: a `document.*` event's
 * body is the document with every expansion, which `documents:read` reads. An endpoint receives an event only if the
 * permissions recorded on it (those of the key that registered it, or last changed its URL) allow that read, and a
 * key may only register an endpoint, change its URL, rotate its secret or replay an event if it holds that read
 * itself: `webhooks:write` manages endpoints, it does not open a way around the read permissions.
 */
export const EVENT_PERMISSIONS: Readonly<Record<EventType, Exclude<Permission, '*'>>> = {
  'document.updated': 'documents:read',
  'document.deleted': 'documents:read',
};

/** The event types whose read permission `held` allows; an unknown type is never allowed. */
export function receives(held: ReadonlySet<string>, type: string): boolean {
  const needed = (EVENT_PERMISSIONS as Record<string, Permission | undefined>)[type];
  return needed !== undefined && allows(held, needed);
}

/** The read permissions an endpoint holding `held` needs for the events it receives, each once. */
export function permissionsOfEventsReceived(held: ReadonlySet<string>): Array<Exclude<Permission, '*'>> {
  return [...new Set(Object.values(EVENT_PERMISSIONS))].filter((permission) => allows(held, permission));
}

/** The first of `needed` that `held` lacks, or null. */
export function missingPermission(held: ReadonlySet<string>, needed: Iterable<Exclude<Permission, '*'>>): Exclude<Permission, '*'> | null {
  for (const permission of needed) if (!allows(held, permission)) return permission;
  return null;
}

/** Every (event type, stored permission that allows it) pair: the fan-out's rule, for SQL. */
export function eventGrants(): { types: string[]; permissions: string[] } {
  const pairs = Object.entries(EVENT_PERMISSIONS).flatMap(([type, needed]) =>
    ALL_PERMISSIONS.filter((held) => allows(new Set([held]), needed)).map((held) => [type, held] as const),
  );
  return { types: pairs.map(([type]) => type), permissions: pairs.map(([, held]) => held) };
}
