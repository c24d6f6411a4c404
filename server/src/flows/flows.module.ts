import { Module } from '@nestjs/common';
import { DocumentsModule } from '../documents/documents.module.js';
import { FlowsController } from './flows.controller.js';
import { FlowsService } from './flows.service.js';

@Module({
  imports: [DocumentsModule],
  controllers: [FlowsController],
  providers: [FlowsService],
})
export class FlowsModule {}
