import { Inject, Injectable } from '@nestjs/common';
import { BatchWriter } from '../common/batching/batch-writer.js';
import type { FailedRequest, RequestRecorder } from '../common/logging/request-recorder.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { RequestLogsRepository } from './request-logs.repository.js';

/** Most entries one INSERT writes; the buffer reaching it starts a write at once instead of after the delay. */
export const REQUEST_LOG_BATCH = 500;

/**
 * The API process's side of the request log: failed requests go to a BatchWriter, written in batches (one multi-row
 * INSERT of up to REQUEST_LOG_BATCH) at most REQUEST_LOG_FLUSH_MS after they are recorded, or as soon as a batch is
 * full. `record` never waits and never fails: past REQUEST_LOG_BUFFER held entries (PostgreSQL slow or down) new ones
 * are dropped, as is a batch whose INSERT fails; both are counted and logged. The server's close writes what is left
 * (access-log.ts, Fastify's onClose: after the last request, before the database closes).
 */
@Injectable()
export class RequestLogWriter implements RequestRecorder {
  private readonly batches: BatchWriter<FailedRequest>;

  constructor(logs: RequestLogsRepository, @Inject(APP_CONFIG) config: AppConfig) {
    this.batches = new BatchWriter({
      context: RequestLogWriter.name,
      name: 'request log',
      entries: 'failed requests',
      write: (batch) => logs.insert(batch),
      batchSize: REQUEST_LOG_BATCH,
      delayMs: config.requestLog.flushMs,
      limit: config.requestLog.bufferLimit,
    });
  }

  /** Entries dropped since the process started (buffer full or a failed write). */
  get dropped(): number {
    return this.batches.dropped;
  }

  record(entry: FailedRequest): void {
    this.batches.add(entry);
  }

  /** Writes everything held now (after the write under way, if any). */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  close(): Promise<void> {
    return this.batches.close();
  }
}
