import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { COUNTERPART_REGISTRY } from './counterpart-registry.port.js';
import { DatabaseCounterpartRegistry } from './drivers/database.driver.js';
import { RegistryCompaniesRepository } from './drivers/registry-companies.repository.js';
import { Counterpart } from './counterpart.entity.js';
import { CounterpartsController } from './counterparts.controller.js';
import { CounterpartsRepository } from './counterparts.repository.js';
import { CounterpartsService } from './counterparts.service.js';
import { RegistryCompany } from './registry-company.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Counterpart, RegistryCompany])],
  controllers: [CounterpartsController],
  providers: [
    CounterpartsService,
    CounterpartsRepository,
    RegistryCompaniesRepository,
    { provide: COUNTERPART_REGISTRY, useClass: DatabaseCounterpartRegistry },
  ],
  exports: [CounterpartsService],
})
export class CounterpartsModule {}
