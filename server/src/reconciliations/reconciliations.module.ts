import { Module } from '@nestjs/common';
import { DocumentsModule } from '../documents/documents.module.js';
import { ReconciliationsController } from './reconciliations.controller.js';
import { ReconciliationsService } from './reconciliations.service.js';

@Module({
  imports: [DocumentsModule],
  controllers: [ReconciliationsController],
  providers: [ReconciliationsService],
})
export class ReconciliationsModule {}
