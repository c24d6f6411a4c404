import type { Clock } from '../clock/clock.port.js';

/** Wakes a sleeping loop early: `wait` returns at the first ring or after its time on the clock, whichever comes first. */
export class Doorbell {
  private rung = false;
  private wake?: () => void;

  constructor(private readonly clock: Clock) {}

  ring = (): void => {
    this.rung = true;
    this.wake?.();
  };

  async wait(ms: number): Promise<void> {
    if (!this.rung) {
      await new Promise<void>((resolve) => {
        const cancel = this.clock.setTimer(ms, resolve);
        this.wake = () => {
          cancel();
          resolve();
        };
      });
    }
    this.wake = undefined;
    this.rung = false;
  }
}
