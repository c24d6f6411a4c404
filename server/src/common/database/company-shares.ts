import { ApiError } from '../errors/api-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/error-response.js';

/** A counting semaphore whose waiters, first come first served, give up after a deadline. */
class Share {
  held = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly size: number) {}

  get idle(): boolean {
    return this.held === 0 && this.waiters.length === 0;
  }

  acquire(waitMs: number): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        this.held++;
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(grant), 1);
        reject(
          ApiError.of('service_unavailable', 'This company has too many requests waiting on the database; try again shortly.', undefined, {
            'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
          }),
        );
      }, waitMs);
      this.waiters.push(grant);
    });
  }

  release(): void {
    this.held--;
    this.waiters.shift()?.();
  }
}

/**
 * Each company's share of a process's database work: at most `size` of one company's requests are served at once
 * (each uses one pooled connection at a time), the others wait in line, up to `waitMs`, then get 503. A tenant whose
 * requests queue on a locked row waits on its own share, and every other company still finds free connections.
 */
export class CompanyShares {
  private readonly shares = new Map<string, Share>();

  constructor(
    private readonly size: number,
    private readonly waitMs: number,
  ) {}

  /** Waits for a place in the company's share; returns the function that gives it back (once). */
  async enter(companyId: string): Promise<() => void> {
    let share = this.shares.get(companyId);
    if (!share) this.shares.set(companyId, (share = new Share(this.size)));
    await share.acquire(this.waitMs);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      share.release();
      if (share.idle) this.shares.delete(companyId);
    };
  }
}
