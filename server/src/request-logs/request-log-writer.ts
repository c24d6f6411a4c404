import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { FailedRequest, RequestRecorder } from '../common/logging/request-recorder.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { RequestLogsRepository } from './request-logs.repository.js';

/** Most entries one INSERT writes; the buffer reaching it starts a write at once instead of at the next tick. */
export const REQUEST_LOG_BATCH = 500;

/**
 * The API process's side of the request log: failed requests are held in memory and written in batches (one
 * multi-row INSERT of up to REQUEST_LOG_BATCH), every REQUEST_LOG_FLUSH_MS or as soon as a batch is full, one write at
 * a time. `record` never waits and never fails: past REQUEST_LOG_BUFFER held entries (PostgreSQL slow or down) new ones
 * are dropped, as is a batch whose INSERT fails; both are counted and the count is logged once per write. The server's
 * close writes what is left (access-log.ts, Fastify's onClose: after the last request, before the database closes).
 */
@Injectable()
export class RequestLogWriter implements RequestRecorder, OnModuleDestroy {
  private readonly logger = new Logger(RequestLogWriter.name);
  private held: FailedRequest[] = [];
  private writing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  /** Dropped since the last warning about it. */
  private unreported = 0;
  /** Entries dropped since the process started (buffer full or a failed write). */
  dropped = 0;

  constructor(
    private readonly logs: RequestLogsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.timer = setInterval(() => void this.flush(), config.requestLog.flushMs).unref();
  }

  record(entry: FailedRequest): void {
    if (this.held.length >= this.config.requestLog.bufferLimit) {
      this.drop(1);
      return;
    }
    this.held.push(entry);
    if (this.held.length >= REQUEST_LOG_BATCH && !this.writing) void this.flush();
  }

  /**
   * Writes everything held now, batch after batch, after the write under way if any. A batch that fails is dropped and
   * ends the round: the rest waits for the next one rather than meeting the same outage at once.
   */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    let failed = false;
    while (this.held.length > 0 && !failed) {
      const batch = this.held.splice(0, REQUEST_LOG_BATCH);
      this.writing = this.logs.insert(batch).then(
        () => undefined,
        (error: Error) => {
          failed = true;
          this.drop(batch.length);
          this.logger.warn(`request log: a batch of ${batch.length} could not be written: ${error.message}`);
        },
      );
      try {
        await this.writing;
      } finally {
        this.writing = null;
      }
    }
    if (this.unreported > 0) {
      this.logger.warn(`request log: ${this.unreported} failed requests were not recorded (${this.dropped} since start)`);
      this.unreported = 0;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private drop(count: number): void {
    this.dropped += count;
    this.unreported += count;
  }
}
