import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { PgListener } from '../common/database/pg-listener.js';
import { WORK_CHANNELS } from '../common/database/work-channels.js';
import { OutboxLoop, withQueueTimeout } from '../common/events/outbox-loop.js';
import { logQueueErrors } from '../common/events/queue-consumers.js';
import { F24Repository } from './f24.repository.js';

export const F24_QUEUE = 'f24';
export const READ_JOB = 'read';
const BATCH = 50;
/** A request queued this long ago and still waiting is checked: was its job lost, or did it fail every attempt? */
const SWEEP_AFTER_MS = 120_000;

export interface ReadJob {
  requestId: string;
}

const readJobId = (requestId: string) => `read-${requestId}`;

/**
 * Moves waiting F24 requests from PostgreSQL to the `f24` queue, as the SDI dispatcher does transmissions: the API
 * only records the request (whose insert notifies this loop), PostgreSQL stays the record, and the sweeper queues
 * again a request whose job Redis lost and retries one whose job failed every attempt.
 */
@Injectable()
export class F24Dispatcher extends OutboxLoop {
  protected readonly logger = new Logger(F24Dispatcher.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(F24_QUEUE) private readonly queue: Queue<ReadJob>,
    private readonly repository: F24Repository,
    listener: PgListener,
  ) {
    super({ batch: BATCH, idleMs: 1000, sweepEveryMs: SWEEP_AFTER_MS, what: 'F24 dispatch' });
    logQueueErrors(queue);
    listener.on(WORK_CHANNELS.f24, this.doorbell.ring);
  }

  protected moveBatch(): Promise<number> {
    return this.db.transaction(async (manager) => {
      const ids = await this.repository.lockUnqueued(manager, BATCH);
      if (!ids.length) return 0;
      await withQueueTimeout(
        this.queue.addBulk(
          ids.map((requestId) => ({
            name: READ_JOB,
            data: { requestId },
            opts: { jobId: readJobId(requestId), attempts: 5, backoff: { type: 'exponential', delay: 5000 }, removeOnComplete: 1000, removeOnFail: 5000 },
          })),
        ),
        'queueing F24 requests',
      );
      await this.repository.markQueued(manager, ids);
      return ids.length;
    });
  }

  protected async sweepLost(): Promise<void> {
    const lost: string[] = [];
    for (const id of await this.repository.queuedLongAgo(SWEEP_AFTER_MS)) {
      const job = await withQueueTimeout(this.queue.getJob(readJobId(id)), 'reading a job');
      if (!job) lost.push(id);
      else if (await withQueueTimeout(job.isFailed(), 'reading a job')) await withQueueTimeout(job.retry(), 'retrying a job');
    }
    if (lost.length) {
      this.logger.warn(`${lost.length} F24 request(s) had lost their job (Redis restarted empty?); queueing them again`);
      await this.repository.unqueue(lost);
    }
  }
}
