import { Module } from '@nestjs/common';
import { DocumentsModule } from '../documents/documents.module.js';
import { TransactionsModule } from '../transactions/transactions.module.js';
import { ReconciliationsController } from './reconciliations.controller.js';
import { ReconciliationsRepository } from './reconciliations.repository.js';
import { ReconciliationsService } from './reconciliations.service.js';

@Module({
  imports: [DocumentsModule, TransactionsModule],
  controllers: [ReconciliationsController],
  providers: [ReconciliationsService, ReconciliationsRepository],
})
export class ReconciliationsModule {}
