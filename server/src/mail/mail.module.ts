import { Module } from '@nestjs/common';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/config.js';
import { MailSender } from './mail-sender.js';
import { createMailer } from './mailer.factory.js';
import { MAILER, type Mailer } from './mailer.port.js';

/** The mail channel of the worker: the mailer (its driver picked from the configuration) and the sender the engine calls. */
@Module({
  providers: [
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
    MailSender,
  ],
  exports: [MailSender],
})
export class MailModule {}
