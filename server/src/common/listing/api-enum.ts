import type { FieldSpec } from './list-spec.js';

/*
 * The API writes enum values in uppercase (SPEC, Filtering). Some tables store theirs in lowercase, and their SQL,
 * indexes and migrations rely on it; such values are converted here, at the edge, and nowhere else.
 */

/** A stored lowercase value as the API shows it. */
export function apiEnum<T extends string>(stored: T): Uppercase<T> {
  return stored.toUpperCase() as Uppercase<T>;
}

/** The API's names of stored lowercase values, for DTO enums and CLI choices. */
export function apiEnumValues<T extends string>(stored: readonly T[]): Array<Uppercase<T>> {
  return stored.map(apiEnum);
}

/** A list filter on a column holding lowercase values: it accepts the uppercase names and compares the stored ones. */
export function storedLowercaseEnum(column: string, stored: readonly string[]): FieldSpec {
  return { column, type: 'enum', values: apiEnumValues(stored), toStored: (value) => value.toLowerCase() };
}
