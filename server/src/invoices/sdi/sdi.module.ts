import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module.js';
import { CategoriesRepository } from '../../categories/categories.repository.js';
import { DocumentsRepository } from '../../documents/documents.repository.js';
import { DocumentsService } from '../../documents/documents.service.js';
import { SectionalsService } from '../../sectionals/sectionals.service.js';
import { SandboxSdiChannel } from './drivers/sandbox.driver.js';
import { sdiChannelProvider } from './sdi-channel.factory.js';
import { SDI_QUEUE } from './sdi-channel.port.js';
import { SdiDispatcher } from './sdi-dispatcher.js';
import { SdiNotifications } from './sdi-notifications.js';
import { SdiProcessor } from './sdi.processor.js';
import { SdiRepository } from './sdi.repository.js';
import { InvoicesRepository } from '../invoices.repository.js';
import { SandboxNoticesRepository } from './drivers/sandbox-notices.repository.js';
import { XmlPoolModule } from '../xml-pool.module.js';

/**
 * The worker's side of e-invoices: the dispatcher that queues transmissions, the `sdi` queue's consumer, the SDI
 * channel behind its port (SDI_CHANNEL: the sandbox driver in development, the production driver otherwise) and the
 * notifications that move documents along their statuses.
 */
@Module({
  imports: [BullModule.registerQueue({ name: SDI_QUEUE }), EventsModule, XmlPoolModule],
  providers: [
    DocumentsService,
    // DocumentsService needs them: its rows, the categories a change names, and the sectionals (deleting a document
    // numbered from a sectional gives the number back).
    DocumentsRepository,
    CategoriesRepository,
    SectionalsService,
    SdiRepository,
    InvoicesRepository,
    SdiNotifications,
    SandboxNoticesRepository,
    SandboxSdiChannel,
    sdiChannelProvider,
    SdiDispatcher,
    SdiProcessor,
  ],
})
export class SdiModule {}
