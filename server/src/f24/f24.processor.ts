import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QueueConsumer, queueConsumer } from '../common/events/queue-consumers.js';
import { F24_QUEUE, type ReadJob } from './f24-dispatcher.js';
import { F24Processing } from './f24-processing.js';

/** The consumer of the `f24` queue: one form at a time per worker (OCR takes a core for seconds). */
@Processor(F24_QUEUE, queueConsumer({ concurrency: 1 }))
export class F24Processor extends QueueConsumer {
  constructor(private readonly processing: F24Processing) {
    super();
  }

  async process(job: Job<ReadJob>): Promise<void> {
    await this.processing.process(job.data.requestId);
  }
}
