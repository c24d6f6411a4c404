import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../config/config.js';
import { createMailer } from './mailer.factory.js';
import { MailSender } from './mail-sender.js';
import { messageIdOf } from './mailer.port.js';
import type { ClaimedDelivery } from '../deliveries/delivery-sender.js';

describe('the mailer: SMTP credentials never travel in clear text', () => {
  let smtp: SMTPServer;
  let port: number;
  /** Every AUTH the server received, with the password it was sent. */
  const logins: Array<{ username?: string; password?: string }> = [];
  let accepted = 0;
  /** The Message-ID header of each message the server took. */
  const messageIds: string[] = [];

  beforeAll(async () => {
    // A server that offers no STARTTLS and takes AUTH PLAIN over the plain connection: what the red team used.
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: true,
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username, password: auth.password ?? undefined });
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          accepted += 1;
          messageIds.push(/^Message-ID: (.*)\r$/im.exec(Buffer.concat(chunks).toString())?.[1] ?? '');
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  const settings = (env: Record<string, string>) => loadConfig({ SMTP_URL: `smtp://flusso:s3cret-pass@127.0.0.1:${port}`, ...env }).mail;
  const message = { to: ['amministrazione@verdi.example'], subject: 'Fattura FT-1', text: 'In allegato.' };

  it('requires TLS when SMTP_URL carries credentials: the delivery fails, saying why, and the password is never sent', async () => {
    const mailer = createMailer(settings({}));
    const sender = new MailSender(mailer, loadConfig({}));
    try {
      const result = await sender.send({ id: 'd', claim: 'c', channel: 'mail', attempts: 0, message, endpoint: null, event: null } satisfies ClaimedDelivery);
      expect(result).toMatchObject({ ok: false, responseStatus: null, permanent: false });
      expect(result.error).toMatch(/^TLS could not be set up with the SMTP server \(Error upgrading connection with STARTTLS: 5\d\d .*\)\. /);
      expect(result.error).toContain(
        'The SMTP_URL credentials are never sent unencrypted; offer STARTTLS on the server, use smtps://, or set SMTP_ALLOW_CLEARTEXT_AUTH=true.',
      );
      expect(result.error).not.toContain('s3cret-pass');
    } finally {
      mailer.close();
    }
    expect(logins).toEqual([]);
    expect(accepted).toBe(0);
  });

  it('ignoreTLS in SMTP_URL does not turn the requirement off', async () => {
    const loose = createMailer({ ...settings({}), smtpUrl: `smtp://flusso:s3cret-pass@127.0.0.1:${port}?ignoreTLS=true` });
    try {
      await expect(loose.send(message, { id: 'd' })).rejects.toThrow(/never sent unencrypted/);
    } finally {
      loose.close();
    }
    expect(logins).toEqual([]);
  });

  it('sends in clear text only when the operator allows it with SMTP_ALLOW_CLEARTEXT_AUTH=true', async () => {
    const mailer = createMailer(settings({ SMTP_ALLOW_CLEARTEXT_AUTH: 'true' }));
    try {
      await expect(mailer.send(message, { id: 'd' })).resolves.toMatchObject({ response: expect.stringMatching(/^250 /) });
    } finally {
      mailer.close();
    }
    expect(logins).toEqual([{ username: 'flusso', password: 's3cret-pass' }]);
    expect(accepted).toBe(1);
  });

  it('a server without credentials is not asked for TLS', async () => {
    const mailer = createMailer({ ...settings({}), smtpUrl: `smtp://127.0.0.1:${port}` });
    try {
      await expect(mailer.send(message, { id: 'd' })).resolves.toMatchObject({ response: expect.stringMatching(/^250 /) });
    } finally {
      mailer.close();
    }
    expect(accepted).toBe(2);
  });

  it("names every attempt at a delivery's message alike: a copy sent again is the same message to the recipient", async () => {
    const config = loadConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Rossi Forniture <fatture@rossi.example>' });
    const sender = new MailSender(createMailer(config.mail), config);
    const delivery = (id: string) => ({ id, claim: 'c', channel: 'mail', attempts: 0, message, endpoint: null, event: null }) satisfies ClaimedDelivery;
    const [first, second] = ['5f0c1a52-8a3e-4b4e-9f57-0d7a6a3c1e01', '5f0c1a52-8a3e-4b4e-9f57-0d7a6a3c1e02'];
    const before = messageIds.length;
    for (const id of [first, first, second]) expect((await sender.send(delivery(id))).ok).toBe(true);
    expect(messageIds.slice(before)).toEqual([`<${first}@rossi.example>`, `<${first}@rossi.example>`, `<${second}@rossi.example>`]);
  });

  it('takes the Message-ID domain from MAIL_FROM, with or without a display name', () => {
    expect(messageIdOf('d1', 'Flusso <no-reply@flusso.example>')).toBe('<d1@flusso.example>');
    expect(messageIdOf('d1', 'no-reply@mail.rossi.example')).toBe('<d1@mail.rossi.example>');
    expect(messageIdOf('d1', 'Flusso')).toBe('<d1@flusso.invalid>');
  });

  it('SMTP_ALLOW_CLEARTEXT_AUTH takes true or false only', () => {
    expect(() => loadConfig({ SMTP_ALLOW_CLEARTEXT_AUTH: 'yes' })).toThrow('SMTP_ALLOW_CLEARTEXT_AUTH must be one of true, false, got "yes"');
  });
});

describe('the mailer: an attempt the engine gives up on is taken back', () => {
  let smtp: SMTPServer;
  /** Messages the server read to the end (it would confirm each). */
  let read = 0;
  let closes = 0;
  const RCPT_DELAY_MS = 800;

  beforeAll(async () => {
    // Each reply in time (MAIL_TIMEOUT_MS is 1000), the whole exchange slow: only the engine's cut-off ends it.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(_address, _session, callback) {
        setTimeout(() => callback(), RCPT_DELAY_MS);
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          read += 1;
          callback();
        });
      },
      onClose: () => {
        closes += 1;
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('closes the connection of an aborted message before its data: the server never gets it to confirm', async () => {
    const config = loadConfig({ SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, MAIL_TIMEOUT_MS: '1000' });
    const sender = new MailSender(createMailer(config.mail), config);
    const abort = new AbortController();
    const delivery = {
      id: 'd',
      claim: 'c',
      channel: 'mail',
      attempts: 0,
      message: { to: ['a@verdi.example', 'b@verdi.example', 'c@verdi.example'], subject: 'Fattura FT-9', text: 'In allegato.' },
      endpoint: null,
      event: null,
    } satisfies ClaimedDelivery;
    const sending = sender.send(delivery, abort.signal);
    setTimeout(() => abort.abort(), RCPT_DELAY_MS / 2);
    const result = await sending;
    expect(result.ok).toBe(false);
    // Past every delayed reply: an exchange left running would have handed the message over by now.
    await new Promise((resolve) => setTimeout(resolve, 4 * RCPT_DELAY_MS));
    expect(read).toBe(0);
    expect(closes).toBe(1);
  });
});
