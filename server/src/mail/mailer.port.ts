import type { MailMessage } from '../deliveries/delivery.entity.js';

/** What the mail server said about a message it took. */
export interface MailReceipt {
  messageId: string;
  /** The server's last reply (`250 OK…`), or where the message was written. */
  response: string;
}

/** The port through which Flusso sends e-mail (drivers in `drivers/`); the worker's mail channel is its only user. */
export interface Mailer {
  /**
   * Sends one message. `signal` aborts it: a message not yet handed over in full is taken back (its connection
   * closed before the end of the data), so the server never confirms it after the attempt was given up on.
   */
  send(message: MailMessage, signal?: AbortSignal): Promise<MailReceipt>;
  close(): void;
}

/** The injection token of the mailer (mailer.factory.ts picks the driver). */
export const MAILER = Symbol('MAILER');

/** A refusal by the mail server, with its SMTP reply code (`responseCode`) when it gave one. */
export type MailError = Error & { responseCode?: number; response?: string };

/** A message as nodemailer takes it, from `from`. */
export function toNodemailer(from: string, message: MailMessage) {
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
