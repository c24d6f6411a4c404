import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module.js';
import { SharesController } from './shares.controller.js';
import { SharesRepository } from './shares.repository.js';
import { SharesService } from './shares.service.js';

@Module({ imports: [DeliveriesModule], controllers: [SharesController], providers: [SharesRepository, SharesService] })
export class SharesModule {}
