import { Module } from '@nestjs/common';
import { SectionalsController } from './sectionals.controller.js';
import { SectionalsService } from './sectionals.service.js';

@Module({
  controllers: [SectionalsController],
  providers: [SectionalsService],
  exports: [SectionalsService],
})
export class SectionalsModule {}
