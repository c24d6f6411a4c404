import nodemailer from 'nodemailer';
import type { MailSettings } from '../../config/config.js';
import type { MailMessage } from '../../deliveries/delivery.entity.js';
import { toNodemailer, type MailAttempt, type MailError, type Mailer, type MailReceipt } from '../mailer.port.js';

/**
 * SMTP (SMTP_URL) through nodemailer: MAIL_CONNECTIONS pooled connections, reused between messages, each step of the
 * exchange bounded by MAIL_TIMEOUT_MS (a server that stalls fails the attempt). An SMTP_URL with credentials requires
 * TLS (`smtps://`, or STARTTLS, which nodemailer then insists on whatever the URL says) unless
 * SMTP_ALLOW_CLEARTEXT_AUTH is true: a server that offers no STARTTLS, or a man in the middle who strips it, never
 * gets the password.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: ReturnType<typeof smtpTransport>;
  private readonly tlsRequired: boolean;

  constructor(private readonly settings: MailSettings & { smtpUrl: string }) {
    const url = new URL(settings.smtpUrl);
    if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
    this.tlsRequired = (url.username !== '' || url.password !== '') && !settings.allowCleartextAuth;
    if (this.tlsRequired) url.searchParams.set('requireTLS', 'true');
    url.searchParams.set('maxConnections', String(settings.connections));
    for (const timeout of ['connectionTimeout', 'greetingTimeout', 'socketTimeout', 'dnsTimeout']) url.searchParams.set(timeout, String(settings.timeoutMs));
    this.transport = smtpTransport(url.toString());
  }

  async send(message: MailMessage, { id, signal }: MailAttempt): Promise<MailReceipt> {
    try {
      // The pool closes the connection carrying an aborted message: cut off mid-exchange, it is never completed.
      const info = await this.transport.sendMail({ ...toNodemailer(this.settings.from, message, id), signal });
      return { messageId: info.messageId, response: info.response };
    } catch (error) {
      throw this.tlsRequired ? withoutTlsReason(error as MailError & { code?: string }) : error;
    }
  }

  close(): void {
    this.transport.close();
  }
}

const smtpTransport = (url: string) => nodemailer.createTransport(url);

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
