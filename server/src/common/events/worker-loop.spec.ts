import { describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { waitFor } from '../../../test/webhook-receiver.js';
import { ManualClock } from '../clock/drivers/manual.driver.js';
import { WorkerLoop } from './worker-loop.js';

/** A loop whose rounds and sweeps are counted, and whose next round can be made to fail. */
class CountingLoop extends WorkerLoop {
  protected readonly logger = new Logger('CountingLoop');
  rounds = 0;
  sweeps = 0;
  failNext = false;

  constructor(clock: ManualClock) {
    super({ what: 'counting', idleMs: 60_000, sweepEveryMs: 600_000 }, clock);
    this.logger.error = () => undefined;
  }

  protected override async round(): Promise<number> {
    this.rounds++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the database went away');
    }
    return 60_000;
  }

  protected override async periodically(): Promise<void> {
    this.sweeps++;
  }
}

/** The one loop lifecycle, driven by the manual clock: no test here waits for time to pass. */
describe('the worker loop', () => {
  it('sleeps on the clock, wakes on the doorbell, sweeps on its interval, backs off after a failure and stops', async () => {
    const clock = new ManualClock();
    const loop = new CountingLoop(clock);
    loop.onApplicationBootstrap();
    try {
      await waitFor(() => loop.rounds === 1 && clock.pending === 1, 'the first round, then asleep');
      expect(loop.sweeps).toBe(1);

      await clock.advance(59_000);
      expect(loop.rounds).toBe(1);
      await clock.advance(1000);
      await waitFor(() => loop.rounds === 2, 'the round after the idle sleep');

      loop.wake();
      await waitFor(() => loop.rounds === 3, 'the round the doorbell rang for');

      // A failed round is tried again after 100 ms of the clock, not the idle minute.
      loop.failNext = true;
      loop.wake();
      await waitFor(() => loop.rounds === 4, 'the failing round');
      await clock.advance(100);
      await waitFor(() => loop.rounds === 5, 'the round after the back-off');

      // Ten minutes after the first sweep, the next: the sleep before it is cut to the sweep's time.
      expect(loop.sweeps).toBe(1);
      await clock.advance(600_000);
      await waitFor(() => loop.sweeps === 2, 'the second sweep');
    } finally {
      await loop.onApplicationShutdown();
    }
    const after = loop.rounds;
    await clock.advance(3_600_000);
    expect(loop.rounds).toBe(after);
  });
});
