import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Flow } from './flow.entity.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { FlowsController } from './flows.controller.js';
import { FlowsService } from './flows.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Flow]), DocumentsModule],
  controllers: [FlowsController],
  providers: [FlowsService],
})
export class FlowsModule {}
