/**
 * When a failed attempt is tried again: the schedule's wait for that attempt, give or take 10% at random (jitter, so
 * that deliveries failed together do not come back together), and never sooner than the other side's Retry-After.
 * Returns null when the schedule is exhausted: the delivery has failed for good.
 */
export function nextAttemptDelay(schedule: readonly number[], attemptsMade: number, retryAfterMs?: number, random = Math.random): number | null {
  const wait = schedule[attemptsMade - 1];
  if (wait === undefined) return null;
  const jittered = Math.round(wait * (0.9 + 0.2 * random()));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** A Retry-After longer than this is taken as this: a receiver cannot park its events for weeks. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/** Retry-After in seconds or as an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
