import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Flow } from '../flows/flow.entity.js';
import { DocumentsModule } from './documents.module.js';
import { FlowsController } from './flows.controller.js';
import { FlowsService } from './flows.service.js';

/** A document's flows (its instalments): rules in FlowsService, under the document's lock. */
@Module({
  imports: [TypeOrmModule.forFeature([Flow]), DocumentsModule],
  controllers: [FlowsController],
  providers: [FlowsService],
})
export class FlowsModule {}
