import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { DocumentsService } from '../../documents/documents.service.js';
import { SectionalsService } from '../../sectionals/sectionals.service.js';
import { ProductionSdiChannel, SDI_QUEUE, SdiChannel } from './sdi-channel.js';
import { SdiDispatcher } from './sdi-dispatcher.js';
import { SdiNotifications } from './sdi-notifications.js';
import { SandboxSdiChannel } from './sdi-sandbox.js';
import { SdiProcessor } from './sdi.processor.js';
import { XmlPoolModule } from '../xml-pool.module.js';

/**
 * The worker's side of e-invoices: the dispatcher that queues transmissions, the `sdi` queue's consumer, the SDI
 * channel behind its port (the sandbox in development, the production channel otherwise: SDI_CHANNEL) and the
 * notifications that move documents along their statuses.
 */
@Module({
  imports: [BullModule.registerQueue({ name: SDI_QUEUE }), EventsModule, XmlPoolModule],
  providers: [
    DocumentsService,
    // DocumentsService needs it: deleting a document numbered from a sectional gives the number back.
    SectionalsService,
    SdiNotifications,
    SandboxSdiChannel,
    {
      provide: SdiChannel,
      inject: [APP_CONFIG, SandboxSdiChannel],
      useFactory: (config: AppConfig, sandbox: SandboxSdiChannel): SdiChannel =>
        config.invoices.sdiChannel === 'sandbox' ? sandbox : new ProductionSdiChannel(),
    },
    SdiDispatcher,
    SdiProcessor,
  ],
})
export class SdiModule {}
