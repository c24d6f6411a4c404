import { Module } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { PaymentBatchesController } from './payment-batches.controller.js';
import { PaymentBatchesRepository } from './payment-batches.repository.js';
import { PaymentBatchesService } from './payment-batches.service.js';

@Module({
  controllers: [PaymentBatchesController],
  providers: [PaymentBatchesService, PaymentBatchesRepository, AccountsRepository, CompaniesRepository],
})
export class PaymentsModule {}
