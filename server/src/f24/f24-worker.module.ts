import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { EventsModule } from '../common/events/events.module.js';
import { DeliveriesModule } from '../deliveries/deliveries.module.js';
import { DocumentsRepository } from '../documents/documents.repository.js';
import { F24Dispatcher, F24_QUEUE } from './f24-dispatcher.js';
import { F24Processing } from './f24-processing.js';
import { F24Processor } from './f24.processor.js';
import { F24Repository } from './f24.repository.js';
import { FILE_STORAGE_PROVIDER } from './f24.module.js';

/** The worker's side of F24 forms: the dispatcher that queues waiting requests, the `f24` queue's consumer. */
@Module({
  // DeliveriesModule shares the worker's one LISTEN connection (PgListener).
  imports: [BullModule.registerQueue({ name: F24_QUEUE }), EventsModule, DeliveriesModule],
  providers: [F24Repository, DocumentsRepository, FILE_STORAGE_PROVIDER, F24Processing, F24Dispatcher, F24Processor],
})
export class F24WorkerModule {}
