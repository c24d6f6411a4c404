import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Delivery } from '../deliveries/delivery.entity.js';
import { DeliveryAttempt } from '../deliveries/delivery-attempt.entity.js';
import { InvoiceShare } from './share.entity.js';
import { SharesController } from './shares.controller.js';
import { SharesService } from './shares.service.js';

/** Courtesy copies: a share and the e-mail delivery that carries it (the deliveries module is the worker's engine). */
@Module({
  imports: [TypeOrmModule.forFeature([InvoiceShare, Delivery, DeliveryAttempt])],
  controllers: [SharesController],
  providers: [SharesService],
})
export class SharesModule {}
