import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchWriter, type BatchWriterOptions } from './batch-writer.js';

/** A writer into an array; `fail` makes the writes begun while it is set reject, `hold` keeps them pending until it resolves. */
function sink(options: Partial<BatchWriterOptions<number>> = {}) {
  const written: number[][] = [];
  const state = { fail: false, hold: null as Promise<void> | null };
  const writer = new BatchWriter<number>({
    context: 'BatchWriterSpec',
    name: 'spec',
    entries: 'numbers',
    write: async (batch) => {
      const fail = state.fail;
      if (state.hold) await state.hold;
      if (fail) throw new Error('refused');
      written.push(batch);
    },
    batchSize: 3,
    delayMs: 60_000,
    limit: 5,
    ...options,
  });
  return { writer, written, state };
}

describe('BatchWriter', () => {
  it('writes a full batch at once, and what is left when closed', async () => {
    const { writer, written } = sink();
    for (const n of [1, 2, 3]) writer.add(n);
    await sleep(10);
    expect(written).toEqual([[1, 2, 3]]);
    writer.add(4);
    await sleep(10);
    expect(written).toEqual([[1, 2, 3]]);
    await writer.close();
    expect(written).toEqual([[1, 2, 3], [4]]);
  });

  it('writes entries delayMs after the first of them', async () => {
    const { writer, written } = sink({ delayMs: 30 });
    writer.add(1);
    writer.add(2);
    expect(written).toEqual([]);
    await sleep(100);
    expect(written).toEqual([[1, 2]]);
    writer.add(3);
    await sleep(100);
    expect(written).toEqual([[1, 2], [3]]);
  });

  it('holds at most `limit` entries, drops a batch whose write fails, counts both, and writes the rest in the next round', async () => {
    const { writer, written, state } = sink({ delayMs: 30 });
    let release = () => {};
    state.hold = new Promise<void>((resolve) => (release = resolve));
    state.fail = true;
    for (const n of [1, 2, 3]) writer.add(n); // a full batch: its write starts and waits
    for (let n = 4; n <= 10; n++) writer.add(n); // five held, two dropped
    expect(writer.dropped).toBe(2);
    state.hold = null;
    state.fail = false;
    release();
    // The batch in the failed write is lost; the round ends there, and the next, delayMs later, writes what is held.
    await sleep(10);
    expect(writer.dropped).toBe(5);
    expect(written).toEqual([]);
    await sleep(100);
    expect(written).toEqual([
      [4, 5, 6],
      [7, 8],
    ]);
  });
});
