import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/**
 * What an API key may do, as Stripe's restricted keys: read or write per resource family, or everything (`*`).
 * Write implies read (a key that may change documents may also read them). Every route declares the one permission it
 * needs with `@RequirePermission`, which the ApiKeyGuard checks and the OpenAPI document shows as `x-permission`, or is
 * open to `@AnyKey()`.
 */
export const PERMISSION_FAMILIES = {
  accounts: ['read'],
  categories: ['read', 'write'],
  counterparts: ['read', 'write'],
  products: ['read', 'write'],
  documents: ['read', 'write'],
  flows: ['read', 'write'],
  transactions: ['read', 'write'],
  reconciliations: ['read', 'write'],
  payments: ['read', 'write'],
  'payments:f24': ['read', 'write'],
  webhooks: ['read', 'write'],
  api_keys: ['read', 'write'],
  request_logs: ['read'],
} as const satisfies Record<string, ReadonlyArray<'read' | 'write'>>;

type Families = typeof PERMISSION_FAMILIES;
export type Permission = '*' | { [F in keyof Families]: `${F}:${Families[F][number]}` }[keyof Families];

/** Every permission a key can be given, `*` first. */
export const ALL_PERMISSIONS: readonly Permission[] = [
  '*',
  ...Object.entries(PERMISSION_FAMILIES).flatMap(([family, access]) => access.map((a) => `${family}:${a}` as Permission)),
];

const KNOWN = new Set<string>(ALL_PERMISSIONS);

/** What a route open to every valid key, whatever its permissions, needs (`@AnyKey()`). */
export const ANY_KEY = 'any key';

/** Whether a key holding `held` may make a call that needs `needed`. */
export function allows(held: ReadonlySet<string>, needed: Permission | typeof ANY_KEY): boolean {
  if (needed === ANY_KEY || held.has('*') || held.has(needed)) return true;
  return needed.endsWith(':read') && held.has(needed.replace(/:read$/, ':write'));
}

/**
 * The first of `asked` (stored form) that a key holding `held` lacks, or null: a key cannot give another key more
 * than it has itself (`*` only from `*`).
 */
export function firstMissing(held: ReadonlySet<string>, asked: readonly Permission[]): Permission | null {
  return asked.find((permission) => (permission === '*' ? !held.has('*') : !allows(held, permission))) ?? null;
}

/** A list of permissions someone asked for is not valid; the message says why and is meant to be shown as is. */
export class PermissionsError extends Error {}

/**
 * The stored form of the permissions asked for (comma-separated, or a list): known names only, each once, `*` alone
 * when present, a family's `read` dropped when its `write` is there (write implies read), in the order of
 * ALL_PERMISSIONS.
 */
export function normalizePermissions(asked: string | readonly string[]): Permission[] {
  const names = (typeof asked === 'string' ? asked.split(',') : asked).map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new PermissionsError(`Name at least one permission: ${ALL_PERMISSIONS.join(', ')}.`);
  const unknown = names.filter((name) => !KNOWN.has(name));
  if (unknown.length) {
    throw new PermissionsError(
      `Unknown permission${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; use ${ALL_PERMISSIONS.join(', ')}.`,
    );
  }
  const held = new Set(names);
  if (held.has('*')) return ['*'];
  return ALL_PERMISSIONS.filter((p) => held.has(p) && !(p.endsWith(':read') && held.has(p.replace(/:read$/, ':write'))));
}

export const REQUIRED_PERMISSION = 'flusso:permission';

/** The permission a route needs: checked by the ApiKeyGuard, shown in the OpenAPI document as `x-permission`. */
export const RequirePermission = (permission: Exclude<Permission, '*'>): MethodDecorator =>
  applyDecorators(SetMetadata(REQUIRED_PERMISSION, permission), ApiExtension('x-permission', permission));

/**
 * A route every valid key may call, whatever its permissions: the company list, where a key finds the companies it
 * acts in (spec section 8: every call but the company list can answer 403).
 */
export const AnyKey = (): MethodDecorator => SetMetadata(REQUIRED_PERMISSION, ANY_KEY);
