import { Module } from '@nestjs/common';
import { PgListener } from '../common/database/pg-listener.js';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/config.js';
import { createMailer, MAILER, type Mailer } from '../mail/mailer.js';
import { MailSender } from '../mail/mail-sender.js';
import { EventFanOut } from '../webhooks/event-fan-out.js';
import { WebhookSender } from '../webhooks/webhook-sender.js';
import { DeliveryEngine } from './delivery-engine.js';
import { DELIVERY_SENDERS } from './delivery-sender.js';
import { Retention } from './retention.js';

/**
 * The worker's outbound side: the delivery engine with one sender per channel (webhook HTTP, e-mail), the fan-out of
 * events into webhook deliveries, the mailer behind its port, and the retention sweep of what was sent.
 */
@Module({
  providers: [
    PgListener,
    {
      provide: MAILER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Mailer => {
        if (config.environment === 'production' && !config.mail.smtpUrl) {
          throw new ConfigError('SMTP_URL must be set when FLUSSO_ENV=production: the worker sends e-mail');
        }
        return createMailer(config.mail);
      },
    },
    WebhookSender,
    MailSender,
    { provide: DELIVERY_SENDERS, inject: [WebhookSender, MailSender], useFactory: (...senders: unknown[]) => senders },
    DeliveryEngine,
    EventFanOut,
    Retention,
  ],
  exports: [PgListener, DeliveryEngine],
})
export class DeliveriesModule {}
