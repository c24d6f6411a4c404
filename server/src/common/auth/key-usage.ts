import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { BatchWriter } from '../batching/batch-writer.js';
import { CLOCK, type Clock } from '../clock/clock.port.js';
import { ApiKeysRepository } from './api-keys.repository.js';

/** How stale `last_used_at` may be: each API process writes a key's at most once in this time. */
export const KEY_USAGE_PRECISION_MS = 60_000;

/** Keys this process remembers writing; past it the memory starts afresh (a key then may be written again sooner). */
const NOTED_KEYS = 10_000;

/**
 * When keys were last used (`api_keys.last_used_at`), written off the request path: a request only looks its key up in
 * a map; at most once a minute per key, the key goes to a BatchWriter whose one UPDATE writes it on the next turn of
 * the event loop, never awaited by a request. A failed write is logged and the keys in it wait for their next minute.
 */
@Injectable()
export class KeyUsage implements BeforeApplicationShutdown {
  /** Key id → when this process last wrote (or queued) its use, in clock milliseconds. */
  private readonly noted = new Map<string, number>();
  private readonly batches: BatchWriter<string>;

  constructor(apiKeys: ApiKeysRepository, @Inject(CLOCK) clock: Clock) {
    this.batches = new BatchWriter({
      context: KeyUsage.name,
      name: 'last_used_at',
      entries: 'key uses',
      write: (ids) => apiKeys.noteUsed(ids, clock.now()),
      batchSize: NOTED_KEYS,
      delayMs: 0,
      limit: NOTED_KEYS,
    });
  }

  /** The key authenticated a request at `now` (clock milliseconds). */
  used(keyId: string, now: number): void {
    const last = this.noted.get(keyId);
    if (last !== undefined && now - last < KEY_USAGE_PRECISION_MS) return;
    if (this.noted.size >= NOTED_KEYS) this.noted.clear();
    this.noted.set(keyId, now);
    this.batches.add(keyId);
  }

  /** Writes the batch noted so far; resolves when every write begun has ended (tests, shutdown). */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.batches.close();
  }
}
