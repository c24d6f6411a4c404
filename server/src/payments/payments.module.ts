import { Module } from '@nestjs/common';
import { PaymentBatchesController } from './payment-batches.controller.js';
import { PaymentBatchesService } from './payment-batches.service.js';

@Module({
  controllers: [PaymentBatchesController],
  providers: [PaymentBatchesService],
})
export class PaymentsModule {}
