import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** The API side of webhooks: integrators manage their endpoints and read their deliveries. */
@Module({
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
