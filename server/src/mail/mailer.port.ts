import type { MailMessage } from '../deliveries/delivery.entity.js';

/** What the mail server said about a message it took. */
export interface MailReceipt {
  messageId: string;
  /** The server's last reply (`250 OK…`), or where the message was written. */
  response: string;
}

/** One attempt at sending a message. */
export interface MailAttempt {
  /**
   * The message's identity, the same on every attempt (its delivery's id): the Message-ID is `<id@sender's domain>`,
   * so a copy sent again after an attempt whose outcome was lost is the same message to the recipient's mail system.
   */
  id: string;
  /**
   * Aborts the attempt: a message not yet handed over in full is taken back (its connection closed before the end of
   * the data), so the server never confirms it after the attempt was given up on.
   */
  signal?: AbortSignal;
}

/** The port through which Flusso sends e-mail (drivers in `drivers/`); the worker's mail channel is its only user. */
export interface Mailer {
  send(message: MailMessage, attempt: MailAttempt): Promise<MailReceipt>;
  close(): void;
}

/** The injection token of the mailer (mailer.factory.ts picks the driver). */
export const MAILER = Symbol('MAILER');

/** A refusal by the mail server, with its SMTP reply code (`responseCode`) when it gave one. */
export type MailError = Error & { responseCode?: number; response?: string };

/** The Message-ID of every attempt at message `id` from `from` (`Name <user@domain>` or `user@domain`). */
export function messageIdOf(id: string, from: string): string {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'flusso.invalid';
  return `<${id}@${domain}>`;
}

/** A message as nodemailer takes it, from `from`, named by `id` (MailAttempt). */
export function toNodemailer(from: string, message: MailMessage, id: string) {
  return {
    from,
    messageId: messageIdOf(id, from),
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments?.map((a) => ({ filename: a.filename, content: a.content, encoding: a.encoding, contentType: a.contentType })),
  };
}
