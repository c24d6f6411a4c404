import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow } from './payment-batch.entity.js';
import { PaymentBatchesController } from './payment-batches.controller.js';
import { PaymentBatchesService } from './payment-batches.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow])],
  controllers: [PaymentBatchesController],
  providers: [PaymentBatchesService],
})
export class PaymentsModule {}
