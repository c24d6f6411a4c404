import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { PgListener } from '../../common/database/pg-listener.js';
import { WORK_CHANNELS } from '../../common/database/work-channels.js';
import { OutboxLoop, withQueueTimeout } from '../../common/events/outbox-loop.js';
import { logQueueErrors } from '../../common/events/queue-consumers.js';
import { SDI_CHANNEL, SDI_QUEUE, type SdiChannel } from './sdi-channel.port.js';
import { SdiRepository } from './sdi.repository.js';

export const TRANSMIT_JOB = 'transmit';
const BATCH = 100;
const IDLE_MS = 1000;
/** A transmission queued this long ago whose document is still CREATED is checked: was its job lost? */
export const SDI_SWEEP_AFTER_MS = 30_000;

export interface TransmitJob {
  documentId: string;
}

const transmitJobId = (documentId: string) => `transmit-${documentId}`;

/**
 * Moves issued e-invoices from PostgreSQL to the `sdi` queue: the API only records, in the transaction that makes a
 * document CREATED, that its file is to be transmitted (`invoices.transmission_requested_at`, which notifies this
 * loop); the worker queues the transmission job. So the API never waits on the SDI nor on Redis for it, and Redis is
 * not the record: the sweeper queues again a transmission whose job was lost (Redis restarted empty), and has the
 * channel do the same for what it owes (the sandbox's notifications).
 */
@Injectable()
export class SdiDispatcher extends OutboxLoop {
  protected readonly logger = new Logger(SdiDispatcher.name);

  constructor(
    private readonly transmissions: SdiRepository,
    @InjectQueue(SDI_QUEUE) private readonly queue: Queue<TransmitJob>,
    @Inject(SDI_CHANNEL) private readonly channel: SdiChannel,
    listener: PgListener,
  ) {
    super({ batch: BATCH, idleMs: IDLE_MS, sweepEveryMs: SDI_SWEEP_AFTER_MS, what: 'SDI dispatch' });
    logQueueErrors(queue);
    listener.on(WORK_CHANNELS.sdi, this.doorbell.ring);
  }

  /** Queues one batch of requested transmissions; returns how many. */
  async dispatchBatch(): Promise<number> {
    return this.transmissions.transaction(async (manager) => {
      const documentIds = await this.transmissions.lockRequestedTransmissions(manager, BATCH);
      if (!documentIds.length) return 0;
      await withQueueTimeout(
        this.queue.addBulk(
          documentIds.map((document_id) => ({
            name: TRANSMIT_JOB,
            data: { documentId: document_id },
            opts: {
              jobId: transmitJobId(document_id),
              attempts: 10,
              backoff: { type: 'exponential', delay: 2000 },
              removeOnComplete: 1000,
              removeOnFail: 5000,
            },
          })),
        ),
        'queueing transmissions',
      );
      await this.transmissions.markQueued(manager, documentIds);
      return documentIds.length;
    });
  }

  /**
   * Queues again the transmissions of documents still CREATED whose job is gone, and tries again those whose job failed
   * for good (the channel was down through every attempt); returns how many.
   */
  async sweep(): Promise<number> {
    const stale = await this.transmissions.staleTransmissions(SDI_SWEEP_AFTER_MS);
    const lost: string[] = [];
    let retried = 0;
    for (const document_id of stale) {
      const job = await withQueueTimeout(this.queue.getJob(transmitJobId(document_id)), 'reading a job');
      if (!job) lost.push(document_id);
      else if (await withQueueTimeout(job.isFailed(), 'reading a job')) {
        await withQueueTimeout(job.retry(), 'retrying a job');
        retried++;
      }
    }
    if (retried) this.logger.warn(`${retried} SDI transmission(s) had failed every attempt; trying them again`);
    if (lost.length) {
      this.logger.warn(`${lost.length} SDI transmission(s) had lost their job (Redis restarted empty?); queueing them again`);
      await this.transmissions.requeue(lost);
    }
    return lost.length + retried;
  }

  protected moveBatch(): Promise<number> {
    return this.dispatchBatch();
  }

  protected async sweepLost(): Promise<void> {
    await this.sweep();
    await this.channel.sweep();
  }
}
