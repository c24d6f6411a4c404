const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * A timestamp as the API writes it: `Date.prototype.toISOString()`'s text (`2026-11-29T16:01:14.000Z`), made from
 * the date's UTC fields. toISOString leaves JavaScript for the runtime on every call and cost half of a list page's
 * presentation (two timestamps a row); this costs less than half of it. Years outside 1000–9999 (and an invalid
 * date, which throws) are left to toISOString.
 */
export function instant(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${three(date.getUTCMilliseconds())}Z`;
}

/** instant() of a timestamp that may be missing: null then. */
export const instantOrNull = (date: Date | null | undefined): string | null => (date ? instant(date) : null);
