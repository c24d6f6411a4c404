/** Wakes a sleeping loop early: `wait` returns at the first ring or after its time, whichever comes first. */
export class Doorbell {
  private rung = false;
  private wake?: () => void;

  ring = (): void => {
    this.rung = true;
    this.wake?.();
  };

  async wait(ms: number): Promise<void> {
    if (!this.rung) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, ms));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.wake = undefined;
    this.rung = false;
  }
}
