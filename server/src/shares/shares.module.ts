import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveriesModule } from '../deliveries/deliveries.module.js';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import { InvoiceShare } from './share.entity.js';
import { SharesController } from './shares.controller.js';
import { SharesRepository } from './shares.repository.js';
import { SharesService } from './shares.service.js';

/** Courtesy copies: a share, and the e-mail delivery that carries it through the one outbound pipeline. */
@Module({
  imports: [TypeOrmModule.forFeature([InvoiceShare]), DeliveriesModule],
  controllers: [SharesController],
  providers: [SharesRepository, SharesService, InvoicesRepository],
})
export class SharesModule {}
