import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src/index.js';

/**
 * verifyWebhook against the reference implementation of Standard Webhooks (the `standardwebhooks` package): what it
 * signs, the SDK accepts; what the SDK refuses, it refuses too. The live test verifies a real delivery of the worker.
 */
describe('verifyWebhook and the standardwebhooks reference', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const reference = new Webhook(secret);
  const body = JSON.stringify({ id: 'e1', event: 'document.updated', company_id: 'c1', data: { id: 'd1', notes: 'caffè ☕' } });

  function signed(at: Date, id = 'msg_1') {
    return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': reference.sign(id, at, body) };
  }

  it("accepts the reference's signature, with the header names in any case", () => {
    const headers = signed(new Date());
    expect(verifyWebhook(body, headers, secret)).toMatchObject({ event: 'document.updated', data: { notes: 'caffè ☕' } });
    const shouting = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(Buffer.from(body), shouting, secret)).toMatchObject({ id: 'e1' });
    expect(reference.verify(body, headers)).toMatchObject({ id: 'e1' });
  });

  it('refuses what the reference refuses: another id, a stale or future timestamp, a missing header', () => {
    const headers = signed(new Date());
    for (const bad of [
      { ...headers, 'webhook-id': 'msg_2' },
      signed(new Date(Date.now() - 10 * 60_000)),
      signed(new Date(Date.now() + 10 * 60_000)),
      { ...headers, 'webhook-signature': 'v2,' + headers['webhook-signature'].slice(3) },
    ]) {
      expect(() => reference.verify(body, bad)).toThrow();
      expect(() => verifyWebhook(body, bad, secret)).toThrow(WebhookVerificationError);
    }
    const { 'webhook-signature': _omitted, ...unsigned } = headers;
    expect(() => verifyWebhook(body, unsigned, secret)).toThrow('webhook-signature');
  });

  it('refuses a secret that is not whsec_ (a mistake of the caller, not of the delivery)', () => {
    expect(() => verifyWebhook(body, signed(new Date()), secret.slice('whsec_'.length))).toThrow(TypeError);
  });
});
