import { Module } from '@nestjs/common';
import { FlowsRepository } from '../flows/flows.repository.js';
import { SectionalsModule } from '../sectionals/sectionals.module.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsRepository } from './documents.repository.js';
import { DocumentsService } from './documents.service.js';

@Module({
  imports: [SectionalsModule],
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentsRepository, FlowsRepository],
  exports: [DocumentsService, DocumentsRepository, FlowsRepository],
})
export class DocumentsModule {}
