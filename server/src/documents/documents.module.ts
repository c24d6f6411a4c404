import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Document } from './document.entity.js';
import { CategoriesModule } from '../categories/categories.module.js';
import { FlowsRepository } from '../flows/flows.repository.js';
import { SectionalsModule } from '../sectionals/sectionals.module.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsRepository } from './documents.repository.js';
import { DocumentsService } from './documents.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Document]), SectionalsModule, CategoriesModule],
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentsRepository, FlowsRepository],
  exports: [DocumentsService, DocumentsRepository, FlowsRepository],
})
export class DocumentsModule {}
