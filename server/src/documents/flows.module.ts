import { Module } from '@nestjs/common';
import { DocumentsModule } from './documents.module.js';
import { FlowsController } from './flows.controller.js';
import { FlowsService } from './flows.service.js';

/** A document's flows (its instalments): rules in FlowsService, under the document's lock. */
@Module({
  imports: [DocumentsModule],
  controllers: [FlowsController],
  providers: [FlowsService],
})
export class FlowsModule {}
