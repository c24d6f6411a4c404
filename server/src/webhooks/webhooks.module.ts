import { Module } from '@nestjs/common';
import { Delivery } from '../deliveries/delivery.entity.js';
import { DeliveryAttempt } from '../deliveries/delivery-attempt.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/**
 * The API side of webhooks: integrators manage their endpoints and read their deliveries (the deliveries module is
 * the worker's engine, so the API registers the delivery entities where it reads them).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, Delivery, DeliveryAttempt])],
  controllers: [WebhookEndpointsController],
  providers: [
    {
      provide: WebhookEndpointsService,
      inject: [getDataSourceToken(), APP_CONFIG],
      useFactory: (db: DataSource, config: AppConfig) => new WebhookEndpointsService(db, config),
    },
  ],
})
export class WebhooksModule {}
