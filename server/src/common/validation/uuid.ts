const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any version of uuid, in either case: every id of the API is one. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The id in its stored (lower-case) form, or the caller's own error when it is not a uuid: the CLI and the CSV import
 * answer in their own error types, the API through `findOwned`.
 */
export function requireUuid(value: string, invalid: (value: string) => Error): string {
  if (!isUuid(value)) throw invalid(value);
  return value.toLowerCase();
}
