import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock/clock.port.js';
import { ApiKeysRepository } from './api-keys.repository.js';

/** How stale `last_used_at` may be: each API process writes a key's at most once in this time. */
export const KEY_USAGE_PRECISION_MS = 60_000;

/**
 * When keys were last used (`api_keys.last_used_at`), written off the request path: a request only looks its key up in
 * a map; at most once a minute per key, the key joins a batch that one UPDATE writes on the next turn of the event
 * loop, never awaited by a request. A failed write is logged and the keys in it wait for their next minute.
 */
@Injectable()
export class KeyUsage implements BeforeApplicationShutdown {
  private readonly logger = new Logger(KeyUsage.name);
  /** Key id → when this process last wrote (or queued) its use, in clock milliseconds. */
  private readonly noted = new Map<string, number>();
  private pending: string[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly apiKeys: ApiKeysRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The key authenticated a request at `now` (clock milliseconds). */
  used(keyId: string, now: number): void {
    const last = this.noted.get(keyId);
    if (last !== undefined && now - last < KEY_USAGE_PRECISION_MS) return;
    if (this.noted.size >= 10_000) this.noted.clear();
    this.noted.set(keyId, now);
    this.pending.push(keyId);
    if (this.pending.length === 1) setImmediate(() => void this.flush());
  }

  /** Writes the batch noted so far; resolves when every write begun has ended (tests, shutdown). */
  flush(): Promise<void> {
    const ids = this.pending;
    if (ids.length > 0) {
      this.pending = [];
      const at = this.clock.now();
      this.writing = this.writing.then(() =>
        this.apiKeys.noteUsed(ids, at).catch((error: Error) => this.logger.warn(`last_used_at of ${ids.length} API key(s) not written: ${error.message}`)),
      );
    }
    return this.writing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
