const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any version of uuid, in either case: every id of the API is one. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
