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
  'document.created': 'documents:read',
  'document.updated': 'documents:read',
  'document.deleted': 'documents:read',
  'transaction.created': 'transactions:read',
  'reconciliation.created': 'reconciliations:read',
  'reconciliation.deleted': 'reconciliations:read',
  'f24.processed': 'payments:f24:read',
  'f24.failed': 'payments:f24:read',
};

/**
 * The event types an endpoint is registered for: registering it, changing its URL or rotating its secret needs their
 * read permissions (all `documents:read`, as before `document.created` joined them). The other types (`transaction.*`,
 * `reconciliation.*`, `f24.*`) reach an endpoint only when the permissions recorded on it read them (the fan-out's
 * rule), so a key without `transactions:read` or `reconciliations:read` still registers endpoints, which simply never
 * receive those events.
 */
export const REGISTERED_EVENT_TYPES: readonly EventType[] = ['document.created', 'document.updated', 'document.deleted'];

/** The event types whose read permission `held` allows; an unknown type is never allowed. */
export function receives(held: ReadonlySet<string>, type: string): boolean {
  const needed = (EVENT_PERMISSIONS as Record<string, Permission | undefined>)[type];
  return needed !== undefined && allows(held, needed);
}

/** The read permissions an endpoint holding `held` needs for the events of `types` it receives, each once. */
export function permissionsOfEventsReceived(held: ReadonlySet<string>, types: readonly EventType[]): Array<Exclude<Permission, '*'>> {
  return [...new Set(types.map((type) => EVENT_PERMISSIONS[type]))].filter((permission) => allows(held, permission));
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
