import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow } from './payment-batch.entity.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { PaymentBatchesController } from './payment-batches.controller.js';
import { PaymentBatchesRepository } from './payment-batches.repository.js';
import { PaymentBatchesService } from './payment-batches.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow])],
  controllers: [PaymentBatchesController],
  providers: [PaymentBatchesService, PaymentBatchesRepository, AccountsRepository, CompaniesRepository],
})
export class PaymentsModule {}
