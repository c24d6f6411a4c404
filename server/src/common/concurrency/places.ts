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

/**
 * Why a wait for a place ended without one: the line was full or its deadline passed (`busy`), or its request ended
 * first (`gone`).
 */
export class WaitEnded extends Error {
  constructor(readonly why: 'busy' | 'gone') {
    super(why === 'busy' ? 'no place within the wait allowed' : 'the request ended while it waited');
  }
}

/** How long a waiter may wait (null: until a place is free or its request ends) and how many may wait at once. */
export interface LineRules {
  waitMs: number | null;
  maxWaiting: number;
}

/**
 * A counting semaphore for requests: `size` places, and a line whose waiters, first come first served, give up after
 * the deadline, or when their request ends, or are refused at once when the line is full. A waiter whose request
 * ended in the same turn as its place came is refused too, its place passed on: nothing runs for a request no one
 * waits for. Every refusal is a WaitEnded; a granted place is given back with release(), once.
 */
export class Places {
  held = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly rules: LineRules,
  ) {}

  get idle(): boolean {
    return this.held === 0 && this.waiters.length === 0;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(end: RequestEnd): Promise<void> {
    if (end.closed) return Promise.reject(new WaitEnded('gone'));
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    if (this.waiters.length >= this.rules.maxWaiting) return Promise.reject(new WaitEnded('busy'));
    const granted = new Promise<void>((resolve, reject) => {
      const leaveLine = (why: WaitEnded['why']) => {
        if (timer) clearTimeout(timer);
        end.removeListener('close', onClose);
        this.waiters.splice(this.waiters.indexOf(grant), 1);
        reject(new WaitEnded(why));
      };
      const onClose = () => leaveLine('gone');
      const grant = () => {
        if (timer) clearTimeout(timer);
        end.removeListener('close', onClose);
        this.held++;
        resolve();
      };
      const timer = this.rules.waitMs === null ? null : setTimeout(() => leaveLine('busy'), this.rules.waitMs);
      end.once('close', onClose);
      this.waiters.push(grant);
    });
    return granted.then(() => {
      if (!end.closed) return;
      this.release();
      throw new WaitEnded('gone');
    });
  }

  release(): void {
    this.held--;
    this.waiters.shift()?.();
  }
}
