import { Logger } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import type { MailSettings } from '../config/config.js';
import type { MailMessage } from '../deliveries/delivery.entity.js';

/** What the mail server said about a message it took. */
export interface MailReceipt {
  messageId: string;
  /** The server's last reply (`250 OK…`), or where the message was written. */
  response: string;
}

/** The port through which Flusso sends e-mail; the worker's mail channel is its only user. */
export interface Mailer {
  send(message: MailMessage): Promise<MailReceipt>;
  close(): void;
}

export const MAILER = Symbol('MAILER');

/** A refusal by the mail server, with its SMTP reply code (`responseCode`) when it gave one. */
export type MailError = Error & { responseCode?: number; response?: string };

function toNodemailer(from: string, message: MailMessage) {
  return {
    from,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments?.map((a) => ({ filename: a.filename, content: a.content, encoding: a.encoding, contentType: a.contentType })),
  };
}

/**
 * The nodemailer adapter: SMTP when SMTP_URL is set (MAIL_CONNECTIONS pooled connections, reused between messages,
 * each step of the exchange bounded by MAIL_TIMEOUT_MS: a server that stalls fails the attempt); otherwise, on a
 * developer's machine, each message is written as an .eml file to MAIL_OUTBOX_DIR (any mail client opens it) and the
 * path is logged. An SMTP_URL with credentials requires TLS (`smtps://`, or STARTTLS, which nodemailer then insists
 * on whatever the URL says) unless SMTP_ALLOW_CLEARTEXT_AUTH is true: a server that offers no STARTTLS, or a man in
 * the middle who strips it, never gets the password.
 */
export function createMailer(settings: MailSettings): Mailer {
  const logger = new Logger('Mailer');
  if (settings.smtpUrl) {
    const url = new URL(settings.smtpUrl);
    if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
    const tlsRequired = (url.username !== '' || url.password !== '') && !settings.allowCleartextAuth;
    if (tlsRequired) url.searchParams.set('requireTLS', 'true');
    url.searchParams.set('maxConnections', String(settings.connections));
    for (const timeout of ['connectionTimeout', 'greetingTimeout', 'socketTimeout', 'dnsTimeout']) url.searchParams.set(timeout, String(settings.timeoutMs));
    const transport = nodemailer.createTransport(url.toString());
    return {
      send: async (message) => {
        try {
          const info = await transport.sendMail(toNodemailer(settings.from, message));
          return { messageId: info.messageId, response: info.response };
        } catch (error) {
          throw tlsRequired ? withoutTlsReason(error as MailError & { code?: string }) : error;
        }
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = resolve(settings.outboxDir);
  return {
    send: async (message) => {
      const info = await transport.sendMail(toNodemailer(settings.from, message));
      await mkdir(folder, { recursive: true });
      const file = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9.-]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer);
      logger.log(`no SMTP_URL: e-mail "${message.subject}" to ${message.to.join(', ')} written to ${file}`);
      return { messageId: info.messageId, response: `written to ${file}` };
    },
    close: () => transport.close(),
  };
}

/**
 * A failure to set up TLS, told as what it is: a configuration to fix, not a refusal of the message, so it has no
 * reply code and the delivery is retried while the operator fixes it.
 */
function withoutTlsReason(error: MailError & { code?: string }): MailError {
  if (error.code !== 'ETLS' && !/STARTTLS/.test(error.message)) return error;
  return Object.assign(
    new Error(
      `TLS could not be set up with the SMTP server (${error.message}). The SMTP_URL credentials are never sent unencrypted; offer STARTTLS on the server, use smtps://, or set SMTP_ALLOW_CLEARTEXT_AUTH=true.`,
    ),
    { response: error.response },
  );
}
