import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryAttempt } from './delivery-attempt.entity.js';
import { Delivery } from './delivery.entity.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveriesService } from './deliveries.service.js';

/**
 * The outbound pipeline's record: the repository that owns its SQL and the service through which webhooks and
 * e-mails are enqueued and their state is read. The engine and its senders are put together by the worker
 * (worker.module.ts), so this folder knows no channel.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Delivery, DeliveryAttempt])],
  providers: [DeliveriesRepository, DeliveriesService],
  exports: [DeliveriesRepository, DeliveriesService],
})
export class DeliveriesModule {}
