import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DeliveriesModule } from '../deliveries/deliveries.module.js';
import { UndiciWebhookHttp } from './drivers/undici.driver.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WEBHOOK_HTTP, type WebhookHttp } from './webhook-http.port.js';
import { WebhookSender } from './webhook-sender.js';

/** The webhook channel of the worker: the HTTP client behind its port and the sender the engine calls. */
@Module({
  imports: [DeliveriesModule],
  providers: [
    {
      provide: WEBHOOK_HTTP,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): WebhookHttp => new UndiciWebhookHttp(config.environment, config.webhooks.timeoutMs),
    },
    WebhookEndpointsRepository,
    WebhookSender,
  ],
  exports: [WebhookSender],
})
export class WebhookSenderModule {}
