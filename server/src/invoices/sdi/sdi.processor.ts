import { Processor } from '@nestjs/bullmq';
import { Inject, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QueueConsumer, queueConsumer } from '../../common/events/queue-consumers.js';
import { InvoicesRepository } from '../invoices.repository.js';
import { SDI_CHANNEL, SDI_QUEUE, type SdiChannel } from './sdi-channel.port.js';
import { TRANSMIT_JOB, type TransmitJob } from './sdi-dispatcher.js';
import { SdiNotifications } from './sdi-notifications.js';
import { SdiRepository } from './sdi.repository.js';
import { SANDBOX_JOB, SandboxSdiChannel, type SandboxJob } from './drivers/sandbox.driver.js';

/**
 * The consumer of the `sdi` queue. `transmit`: hands a CREATED document's file to the SDI channel, then records it SENT
 * (a failure, such as the production channel not being configured, fails the job, which BullMQ retries with backoff;
 * the document stays CREATED). `sandbox-notice`: the development SDI's notifications.
 */
@Processor(SDI_QUEUE, queueConsumer({ concurrency: 16 }))
export class SdiProcessor extends QueueConsumer {
  private readonly logger = new Logger(SdiProcessor.name);

  constructor(
    private readonly repository: SdiRepository,
    private readonly invoices: InvoicesRepository,
    @Inject(SDI_CHANNEL) private readonly channel: SdiChannel,
    private readonly notifications: SdiNotifications,
  ) {
    super();
  }

  async process(job: Job<TransmitJob | SandboxJob>): Promise<void> {
    if (job.name === TRANSMIT_JOB) return this.transmit(job.data.documentId);
    if (job.name === SANDBOX_JOB && this.channel instanceof SandboxSdiChannel) return this.channel.run(job.data as SandboxJob);
    this.logger.warn(`unknown SDI job ${job.name} (${job.id}) ignored`);
  }

  private async transmit(documentId: string): Promise<void> {
    const document = await this.repository.documentState(documentId);
    if (document?.status !== 'CREATED') return;
    const loaded = await this.invoices.loadStored(this.repository.manager, document.companyId, documentId);
    if (!loaded) return;
    try {
      await this.channel.transmit({
        documentId,
        companyId: document.companyId,
        fileName: loaded.document.fileName!,
        xml: loaded.stored.signedFile ?? loaded.xml,
      });
    } catch (error) {
      this.logger.error(`transmitting ${loaded.document.fileName} (document ${documentId}) to the SDI failed: ${(error as Error).message}`);
      throw error;
    }
    await this.notifications.apply(documentId, { kind: 'sent' });
  }
}
