import type { MailSettings } from '../config/config.js';
import { FileMailer } from './drivers/file.driver.js';
import { SmtpMailer } from './drivers/smtp.driver.js';
import type { Mailer } from './mailer.port.js';

/** The mailer's driver: SMTP when SMTP_URL is set, otherwise .eml files in MAIL_OUTBOX_DIR (development). */
export function createMailer(settings: MailSettings): Mailer {
  return settings.smtpUrl ? new SmtpMailer({ ...settings, smtpUrl: settings.smtpUrl }) : new FileMailer(settings);
}
