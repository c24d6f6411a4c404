import { Logger } from '@nestjs/common';

export interface BatchWriterOptions<T> {
  /** Names the log lines: their context and their first words ("request log: …"). */
  context: string;
  name: string;
  /** What an entry is, in the plural, for the warning about dropped ones ("failed requests"). */
  entries: string;
  /** Writes one batch; a rejection drops the batch. */
  write: (batch: T[]) => Promise<unknown>;
  /** Most entries one write takes; the buffer reaching it starts a write at once. */
  batchSize: number;
  /** Longest an entry waits before a write begins: the first one added schedules a flush this much later (0: the next turn of the event loop, setImmediate). */
  delayMs: number;
  /** Most entries held; past it new ones are dropped. */
  limit: number;
}

/**
 * The one way entries are written off the request path (the request log, keys' `last_used_at`): `add` never waits
 * and never throws; entries are held in memory and written in batches of up to `batchSize`, `delayMs` after the first
 * one or as soon as a batch is full, one write at a time. Past `limit` held entries (PostgreSQL slow or down) new ones
 * are dropped, as is a batch whose write fails; both are counted and logged as warnings, never thrown. The timer is
 * unref'd (it never keeps a process alive); `close` writes what is left (a process's shutdown, before its database
 * closes).
 */
export class BatchWriter<T> {
  private readonly logger: Logger;
  private held: T[] = [];
  private writing: Promise<void> | null = null;
  /** Cancels the flush scheduled, if any. */
  private scheduled: (() => void) | null = null;
  /** Dropped since the last warning about it. */
  private unreported = 0;
  /** Entries dropped since the process started (buffer full or a failed write). */
  dropped = 0;

  constructor(private readonly options: BatchWriterOptions<T>) {
    this.logger = new Logger(options.context);
  }

  add(entry: T): void {
    if (this.held.length >= this.options.limit) {
      this.drop(1);
      return;
    }
    this.held.push(entry);
    if (this.held.length >= this.options.batchSize && !this.writing) void this.flush();
    else this.schedule();
  }

  /**
   * Writes everything held now, batch after batch, after the write under way if any. A batch that fails is dropped and
   * ends the round: the rest waits for the next one rather than meeting the same outage at once.
   */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    let failed = false;
    while (this.held.length > 0 && !failed) {
      const batch = this.held.splice(0, this.options.batchSize);
      this.writing = this.options.write(batch).then(
        () => undefined,
        (error: Error) => {
          failed = true;
          this.drop(batch.length);
          this.logger.warn(`${this.options.name}: a batch of ${batch.length} could not be written: ${error.message}`);
        },
      );
      try {
        await this.writing;
      } finally {
        this.writing = null;
      }
    }
    // What a failed round left waits for the next one.
    if (this.held.length > 0) this.schedule();
    if (this.unreported > 0) {
      this.logger.warn(`${this.options.name}: ${this.unreported} ${this.options.entries} were not recorded (${this.dropped} since start)`);
      this.unreported = 0;
    }
  }

  /** Writes what is left, with no timer pending after it. */
  async close(): Promise<void> {
    this.scheduled?.();
    this.scheduled = null;
    await this.flush();
  }

  private schedule(): void {
    if (this.scheduled) return;
    const fire = () => {
      this.scheduled = null;
      void this.flush();
    };
    if (this.options.delayMs > 0) {
      const timer = setTimeout(fire, this.options.delayMs).unref();
      this.scheduled = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(fire).unref();
      this.scheduled = () => clearImmediate(immediate);
    }
  }

  private drop(count: number): void {
    this.dropped += count;
    this.unreported += count;
  }
}
