import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { Places, WaitEnded } from './places.js';

/** A request's end as a waiter sees it (ServerResponse's `close` and `closed`), ended by the test. */
class Ending extends EventEmitter {
  closed = false;
  end(): void {
    this.closed = true;
    this.emit('close');
  }
}

const refusal = (promise: Promise<void>) =>
  promise.then(
    () => 'granted',
    (error: unknown) => (error instanceof WaitEnded ? error.why : error),
  );

describe('places in line', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('grants its places at once, then lines waiters up first come first served as places are given back', async () => {
    const places = new Places(2, { waitMs: null, maxWaiting: 10 });
    await places.acquire(new Ending());
    await places.acquire(new Ending());
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => places.acquire(new Ending()).then(() => order.push(n)));
    expect({ held: places.held, waiting: places.waiting }).toEqual({ held: 2, waiting: 3 });
    places.release();
    places.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([1, 2]);
    places.release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    expect({ held: places.held, waiting: places.waiting }).toEqual({ held: 2, waiting: 0 });
  });

  it('refuses at once past its longest line, and a request already ended', async () => {
    const places = new Places(1, { waitMs: null, maxWaiting: 1 });
    await places.acquire(new Ending());
    const waiting = places.acquire(new Ending());
    expect(await refusal(places.acquire(new Ending()))).toBe('busy');
    const ended = new Ending();
    ended.closed = true;
    expect(await refusal(places.acquire(ended))).toBe('gone');
    places.release();
    expect(await refusal(waiting)).toBe('granted');
  });

  it('lets a waiter go when its request ends, and gives its turn to the next', async () => {
    const places = new Places(1, { waitMs: null, maxWaiting: 10 });
    await places.acquire(new Ending());
    const leaving = new Ending();
    const gone = refusal(places.acquire(leaving));
    const next = refusal(places.acquire(new Ending()));
    leaving.end();
    expect(await gone).toBe('gone');
    expect(places.waiting).toBe(1);
    expect(leaving.listenerCount('close')).toBe(0);
    places.release();
    expect(await next).toBe('granted');
    expect(places.held).toBe(1);
  });

  it('refuses a waiter whose request ended in the same turn as its place came, and passes the place on', async () => {
    const places = new Places(1, { waitMs: null, maxWaiting: 10 });
    await places.acquire(new Ending());
    // Closed, its 'close' not emitted yet: the place comes before the waiter hears of it.
    const ending = new Ending();
    const late = refusal(places.acquire(ending));
    const next = refusal(places.acquire(new Ending()));
    ending.closed = true;
    places.release();
    expect(await late).toBe('gone');
    expect(await next).toBe('granted');
    expect({ held: places.held, waiting: places.waiting }).toEqual({ held: 1, waiting: 0 });
  });

  it('ends a wait at its deadline, on a clock the test moves', async () => {
    jest.useFakeTimers();
    const places = new Places(1, { waitMs: 5_000, maxWaiting: 10 });
    await places.acquire(new Ending());
    const end = new Ending();
    const late = refusal(places.acquire(end));
    jest.advanceTimersByTime(4_999);
    expect(places.waiting).toBe(1);
    jest.advanceTimersByTime(1);
    expect(await late).toBe('busy');
    expect(places.waiting).toBe(0);
    expect(end.listenerCount('close')).toBe(0);
    // A waiter granted before its deadline is not refused later.
    const inTime = refusal(places.acquire(new Ending()));
    places.release();
    expect(await inTime).toBe('granted');
    jest.advanceTimersByTime(10_000);
    expect(places.held).toBe(1);
  });
});
