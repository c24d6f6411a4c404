import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Sectional } from './sectional.entity.js';
import { SectionalsController } from './sectionals.controller.js';
import { SectionalsService } from './sectionals.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Sectional])],
  controllers: [SectionalsController],
  providers: [SectionalsService],
  exports: [SectionalsService],
})
export class SectionalsModule {}
