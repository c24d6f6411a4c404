import { ApiError } from '../errors/api-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/error-response.js';

/** Why a wait for a company's share ended without a place: its deadline passed, or its request ended first. */
export type ShareRefusal = 'busy' | 'gone';

/**
 * What a waiter listens to for the end of its request: Node's ServerResponse, whose `close` comes when the answer has
 * been sent or the client has gone, whichever is first (`closed` once it has). Listened to only while waiting, so a
 * request that finds a free place costs nothing more.
 */
export interface RequestEnd {
  readonly closed: boolean;
  once(event: 'close', listener: () => void): unknown;
  removeListener(event: 'close', listener: () => void): unknown;
}

/** A counting semaphore whose waiters, first come first served, give up after a deadline or when their request ends. */
class Share {
  held = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly size: number) {}

  get idle(): boolean {
    return this.held === 0 && this.waiters.length === 0;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(waitMs: number, end: RequestEnd): Promise<void> {
    if (end.closed) return Promise.reject(shareRefusal('gone'));
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const leaveLine = (why: ShareRefusal) => {
        clearTimeout(timer);
        end.removeListener('close', onClose);
        this.waiters.splice(this.waiters.indexOf(grant), 1);
        reject(shareRefusal(why));
      };
      const onClose = () => leaveLine('gone');
      const grant = () => {
        clearTimeout(timer);
        end.removeListener('close', onClose);
        this.held++;
        resolve();
      };
      const timer = setTimeout(() => leaveLine('busy'), waitMs);
      end.once('close', onClose);
      this.waiters.push(grant);
    });
  }

  release(): void {
    this.held--;
    this.waiters.shift()?.();
  }
}

/**
 * A company over its share is a concurrency limit of the caller, not a fault of the service: 429 with Retry-After, as
 * Stripe answers too many concurrent requests. A request that ended while it waited (its client went away) has no one
 * to answer; it is refused so that it runs nothing.
 */
export function shareRefusal(why: ShareRefusal): ApiError {
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
  private readonly shares = new Map<string, Share>();

  constructor(
    private readonly size: number,
    private readonly waitMs: number,
  ) {}

  /** Waits for a place in the company's share; returns the function that gives it back (once). */
  async enter(companyId: string, end: RequestEnd): Promise<() => void> {
    let share = this.shares.get(companyId);
    if (!share) this.shares.set(companyId, (share = new Share(this.size)));
    try {
      await share.acquire(this.waitMs, end);
    } catch (error) {
      if (share.idle) this.shares.delete(companyId);
      throw error;
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
