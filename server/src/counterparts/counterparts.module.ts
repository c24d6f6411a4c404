import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CounterpartRegistry, DatabaseCounterpartRegistry } from './counterpart-registry.js';
import { Counterpart } from './counterpart.entity.js';
import { CounterpartsController } from './counterparts.controller.js';
import { CounterpartsRepository } from './counterparts.repository.js';
import { CounterpartsService } from './counterparts.service.js';
import { RegistryCompany } from './registry-company.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Counterpart, RegistryCompany])],
  controllers: [CounterpartsController],
  providers: [CounterpartsService, CounterpartsRepository, { provide: CounterpartRegistry, useClass: DatabaseCounterpartRegistry }],
  exports: [CounterpartsService],
})
export class CounterpartsModule {}
