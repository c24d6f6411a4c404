import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Reconciliation } from './reconciliation.entity.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { ReconciliationsController } from './reconciliations.controller.js';
import { ReconciliationsService } from './reconciliations.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Reconciliation]), DocumentsModule],
  controllers: [ReconciliationsController],
  providers: [ReconciliationsService],
})
export class ReconciliationsModule {}
