import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Reconciliation } from '../transactions/reconciliation.entity.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { TransactionsModule } from '../transactions/transactions.module.js';
import { ReconciliationsController } from './reconciliations.controller.js';
import { ReconciliationsRepository } from './reconciliations.repository.js';
import { ReconciliationsService } from './reconciliations.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Reconciliation]), DocumentsModule, TransactionsModule],
  controllers: [ReconciliationsController],
  providers: [ReconciliationsService, ReconciliationsRepository],
})
export class ReconciliationsModule {}
