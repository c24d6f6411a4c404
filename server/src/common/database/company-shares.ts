import { ApiError } from '../errors/api-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/error-response.js';
import { Places, type RequestEnd, WaitEnded } from '../concurrency/places.js';

/**
 * A company over its share is a concurrency limit of the caller, not a fault of the service: 429 with Retry-After, as
 * Stripe answers too many concurrent requests. A request that ended while it waited (its client went away) has no one
 * to answer; it is refused so that it runs nothing.
 */
function shareRefusal(why: WaitEnded['why']): ApiError {
  if (why === 'gone') return ApiError.of('request_timeout', 'The client closed the connection while the request waited for a place in its company share.');
  return ApiError.of(
    'too_many_requests',
    'This company has too many requests in progress at once; send fewer at a time, or retry after `retry-after` seconds.',
    undefined,
    { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Each company's share of a process's database work: at most `size` of one company's requests are served at once
 * (each uses one pooled connection at a time), the others wait in line, up to `waitMs`, then get 429. A tenant whose
 * requests queue on a locked row waits on its own share, and every other company still finds free connections. A
 * waiter whose request ends (its client went away) leaves the line at once.
 */
export class CompanyShares {
  private readonly shares = new Map<string, Places>();

  constructor(
    private readonly size: number,
    private readonly waitMs: number,
  ) {}

  /** Waits for a place in the company's share; returns the function that gives it back (once). */
  async enter(companyId: string, end: RequestEnd): Promise<() => void> {
    let share = this.shares.get(companyId);
    if (!share) this.shares.set(companyId, (share = new Places(this.size, { waitMs: this.waitMs, maxWaiting: Infinity })));
    try {
      await share.acquire(end);
    } catch (error) {
      if (share.idle) this.shares.delete(companyId);
      throw error instanceof WaitEnded ? shareRefusal(error.why) : error;
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      share.release();
      if (share.idle) this.shares.delete(companyId);
    };
  }

  /** Places taken and requests waiting, per company with either: what a test or an operator looks at. */
  usage(): Map<string, { held: number; waiting: number }> {
    return new Map([...this.shares].map(([companyId, share]) => [companyId, { held: share.held, waiting: share.waiting }]));
  }
}
