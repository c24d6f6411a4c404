/** Calendar dates as YYYY-MM-DD strings, computed in UTC so no time zone can shift a day. */

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** 31/12/2026, as Italian banks write dates in movement descriptions. */
export function italianDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

/** A moment of the given day, `minutes` after midnight UTC, as an ISO 8601 date-time. */
export function atMinute(date: string, minutes: number): string {
  const hours = String(Math.floor(minutes / 60)).padStart(2, '0');
  return `${date}T${hours}:${String(minutes % 60).padStart(2, '0')}:00.000Z`;
}

/** Money is counted in integer cents while generating, and written as an exact decimal string. */
export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
