import { Logger } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import type { MailSettings } from '../../config/config.js';
import type { MailMessage } from '../../deliveries/delivery.entity.js';
import { toNodemailer, type MailAttempt, type Mailer, type MailReceipt } from '../mailer.port.js';

/**
 * A developer's machine without SMTP_URL: each message is written as an .eml file to MAIL_OUTBOX_DIR (any mail client
 * opens it) and the path is logged.
 */
export class FileMailer implements Mailer {
  private readonly logger = new Logger('Mailer');
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private readonly folder: string;

  constructor(private readonly settings: MailSettings) {
    this.folder = resolve(settings.outboxDir);
  }

  async send(message: MailMessage, { id }: MailAttempt): Promise<MailReceipt> {
    const info = await this.transport.sendMail(toNodemailer(this.settings.from, message, id));
    await mkdir(this.folder, { recursive: true });
    const file = join(this.folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9.-]/g, '')}.eml`);
    await writeFile(file, info.message as Buffer);
    this.logger.log(`no SMTP_URL: e-mail "${message.subject}" to ${message.to.join(', ')} written to ${file}`);
    return { messageId: info.messageId, response: `written to ${file}` };
  }

  close(): void {
    this.transport.close();
  }
}
