import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { QueryRunner } from 'typeorm';
import { createTenant, startApi, type TestApi } from '../../test/api.js';
import { Fixtures } from '../../test/fixtures.js';
import { Receiver, waitFor } from '../../test/webhook-receiver.js';

/**
 * Delivery by a fleet of workers, each a real process: a slow channel never has a delivery sent by two workers at once,
 * and a worker killed in the middle of its sends leaves every possible duplicate visible (an `unknown` attempt), its
 * deliveries and its queued events taken up by another worker.
 */
describe('delivery by several worker processes', () => {
  let api: TestApi;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    api = await startApi();
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await api.close();
  });

  function spawnWorker(env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, ['dist/server/src/worker.js'], {
      env: { ...process.env, ...env, DATABASE_URL: api.config.databaseUrl, LOG_LEVEL: 'error' },
      stdio: 'ignore',
    });
    children.push(child);
    return child;
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async function stop(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  type Attempt = { delivery_id: string; attempted_at: Date; duration_ms: number; outcome: string; error: string | null };

  /** Attempts of one delivery that overlap in time: two workers sending it at once. */
  function overlapping(attempts: Attempt[]): Attempt[][] {
    const byDelivery = new Map<string, Attempt[]>();
    for (const attempt of attempts) byDelivery.set(attempt.delivery_id, [...(byDelivery.get(attempt.delivery_id) ?? []), attempt]);
    const overlaps: Attempt[][] = [];
    for (const list of byDelivery.values()) {
      list.sort((a, b) => a.attempted_at.getTime() - b.attempted_at.getTime());
      for (let i = 1; i < list.length; i++) {
        if (list[i - 1].attempted_at.getTime() + list[i - 1].duration_ms > list[i].attempted_at.getTime()) overlaps.push([list[i - 1], list[i]]);
      }
    }
    return overlaps;
  }

  describe('an SMTP server that holds its reply past MAIL_TIMEOUT_MS, two workers', () => {
    let smtp: SMTPServer;
    /** Subjects whose message the server took: it replied 250 to a client still waiting for it. */
    const taken: string[] = [];
    /** Messages the server read to the end, taken or not. */
    let read = 0;
    let held = 0;
    const stalls = new Set<string>();
    const closed = new Set<string>();
    const STALL_MS = 7000;

    beforeAll(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        onClose: (session) => closed.add(session.id),
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            read += 1;
            const subject = /^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString('utf8'))![1].trim();
            // A server that commits a message with its reply: one whose client has gone is not taken.
            const reply = () => {
              if (closed.has(session.id)) return;
              taken.push(subject);
              callback();
            };
            if (!stalls.delete(subject)) return reply();
            held += 1;
            setTimeout(() => {
              held -= 1;
              reply();
            }, STALL_MS);
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    it('sends each e-mail once: a stalled attempt is cut off and retried, never sent by a second worker meanwhile', async () => {
      const subjects = Array.from({ length: 20 }, (_, i) => `Copia di cortesia ${i + 1}`);
      for (const subject of subjects.slice(0, 5)) stalls.add(subject);
      await api.db.query(
        `INSERT INTO deliveries (channel, message)
         SELECT 'mail', jsonb_build_object('to', jsonb_build_array('amministrazione@cliente.test'), 'subject', s, 'text', 'In allegato la fattura.')
           FROM unnest($1::text[]) AS s`,
        [subjects],
      );
      const env = {
        SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
        MAIL_TIMEOUT_MS: '1000',
        MAIL_CONNECTIONS: '2',
        MAIL_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms',
        // The lease was 2 × WEBHOOK_TIMEOUT_MS + 5 s for every channel: 5.2 s here, shorter than the stall.
        WEBHOOK_TIMEOUT_MS: '100',
      };
      const workers = [spawnWorker(env), spawnWorker(env)];

      const statuses = async () => (await api.db.query(`SELECT status FROM deliveries WHERE channel = 'mail'`)).map((r: { status: string }) => r.status);
      await waitFor(async () => (await statuses()).every((status: string) => status !== 'pending'), 'every e-mail sent', 120_000);
      await waitFor(() => held === 0, 'the server to end its stalls', 30_000);
      for (const worker of workers) await stop(worker);

      const attempts: Attempt[] = await api.db.query(`SELECT delivery_id, attempted_at, duration_ms, outcome, error FROM delivery_attempts`);
      console.log(
        `mail, 2 workers, 5 of 20 replies held ${STALL_MS} ms: ${read} messages read by the server, ${taken.length} taken, ${attempts.length} attempts`,
      );
      expect(await statuses()).toEqual(subjects.map(() => 'succeeded'));
      expect([...taken].sort()).toEqual([...subjects].sort());
      expect(overlapping(attempts)).toEqual([]);
      // Each stalled attempt ended by MAIL_TIMEOUT_MS, as a failure, and was made again.
      expect(attempts.filter((a) => a.outcome === 'failed')).toHaveLength(5);
      expect(attempts.filter((a) => a.outcome === 'failed').every((a) => /timeout/i.test(a.error ?? ''))).toBe(true);
    }, 180_000);
  });

  describe('a worker killed with SIGKILL in the middle of its sends', () => {
    let receiver: Receiver & { url: string };

    afterAll(async () => {
      await receiver?.close();
    });

    it('records its attempts in flight as UNKNOWN when their lease ends, and its events move on to another worker', async () => {
      const env = {
        WEBHOOK_TIMEOUT_MS: '15000',
        WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s',
        QUEUE_LOCK_DURATION_MS: '2000',
        QUEUE_STALLED_INTERVAL_MS: '1000',
      };
      const tenant = await createTenant(api, 'Bianchi Impianti S.r.l.');
      const fixtures = new Fixtures(api.db, tenant.companyId);
      const categories = [await fixtures.category({ name: 'Utenze' }), await fixtures.category({ name: 'Servizi' })];
      const docs = [];
      for (let i = 0; i < 5; i++) docs.push(await fixtures.document({ number: `FV-${i}` }));
      receiver = await Receiver.start();
      const endpoint = await api.http.post('/api/v1/webhook-endpoints').set(tenant.auth).send({ url: receiver.url }).expect(201);
      receiver.secrets = [endpoint.body.secret];
      // Each answer takes 10 s: the worker holds its sends in flight until it is killed.
      receiver.answer = () => ({ status: 204, delayMs: 10_000 });
      const change = (doc: { id: string }, round: number) =>
        api.http
          .patch(`/api/v1/companies/${tenant.companyId}/documents/${doc.id}`)
          .set(tenant.auth)
          .send({ category_id: categories[round % 2].id })
          .expect(200);

      const first = spawnWorker(env);
      await Promise.all(docs.slice(0, 4).map((doc) => change(doc, 1)));
      await waitFor(() => receiver.received.length === 4, 'four sends in flight', 60_000);

      // The fifth document's event is fanned out by the first worker, and held there: its deliveries cannot be written
      // while the test holds the endpoint's row.
      const holder: QueryRunner = api.db.createQueryRunner();
      await holder.startTransaction();
      await holder.query(`SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, [endpoint.body.id]);
      await change(docs[4], 1);
      const [held] = await api.db.query(`SELECT id FROM events WHERE payload->>'id' = $1`, [docs[4].id]);
      await waitFor(
        async () => (await api.db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).length > 0,
        'the fan-out to wait on the endpoint',
      );

      await kill(first);
      const killedAt = Date.now();
      await holder.rollbackTransaction();
      await holder.release();

      // The dead worker's claims, each leased for its channel's longest attempt and a margin: 15 s + 1 s + 10 s.
      const leases: Array<{ lease_ms: number }> = await api.db.query(
        `SELECT extract(epoch FROM next_attempt_at - claimed_at) * 1000 AS lease_ms FROM deliveries WHERE claim_id IS NOT NULL`,
      );
      expect(leases.map((l) => Math.round(Number(l.lease_ms)))).toEqual([26_000, 26_000, 26_000, 26_000]);
      // The clock moves to the end of those leases.
      await api.db.query(
        `UPDATE deliveries SET next_attempt_at = next_attempt_at - interval '26 s', claimed_at = claimed_at - interval '26 s' WHERE claim_id IS NOT NULL`,
      );

      receiver.answer = () => ({ status: 200 });
      const second = spawnWorker(env);
      const events: Array<{ id: string }> = await api.db.query(`SELECT id FROM events WHERE company_id = $1`, [tenant.companyId]);
      // BullMQ's defaults (a 30 s lock, checked every 30 s) would hold the fifth event longer than this.
      await waitFor(() => events.every((e) => receiver.received.some((r) => r.body.id === e.id && r.status === 200)), 'every event delivered', 25_000);
      console.log(`the killed worker's held event delivered by the other worker ${Date.now() - killedAt} ms after the kill`);
      await waitFor(
        async () => (await api.db.query(`SELECT 1 FROM deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`, [endpoint.body.id])).length === 5,
        'every attempt recorded',
      );
      await stop(second);

      const { body } = await api.http.get(`/api/v1/webhook-endpoints/${endpoint.body.id}/deliveries`).set(tenant.auth).expect(200);
      const deliveries = body.data as Array<{ event_id: string; status: string; attempts: Array<{ outcome: string; error: string | null }> }>;
      expect(deliveries).toHaveLength(5);
      for (const delivery of deliveries) {
        const copies = receiver.received.filter((r) => r.body.id === delivery.event_id).length;
        expect(delivery.status).toBe('SUCCEEDED');
        if (delivery.event_id === held.id) {
          // Fanned out after the kill: sent once, by the second worker.
          expect({ copies, outcomes: delivery.attempts.map((a) => a.outcome) }).toEqual({ copies: 1, outcomes: ['SUCCEEDED'] });
        } else {
          // Received from the killed worker, then again: the first attempt shows as UNKNOWN.
          expect({ copies, outcomes: delivery.attempts.map((a) => a.outcome) }).toEqual({ copies: 2, outcomes: ['UNKNOWN', 'SUCCEEDED'] });
          expect(delivery.attempts[0].error).toMatch(/stopped before its outcome was known/);
        }
      }
      expect(receiver.refused).toEqual([]);
    }, 180_000);
  });
});
