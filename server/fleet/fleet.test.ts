import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/entities.js';
import { loadConfig } from '../src/config/config.js';
import { createTenant } from '../src/demo/seed-demo.js';
import { exampleInvoice } from '../src/invoices/invoice-example.js';
import { createTestDatabase } from '../test/database.js';
import { Fixtures } from '../test/fixtures.js';
import { PgBouncer } from '../test/pgbouncer.js';
import { RedisCluster } from '../test/redis-cluster.js';
import { freePort } from '../test/redis-server.js';
import { Receiver, waitFor } from '../test/webhook-receiver.js';

/**
 * The fleet: two API processes and two workers, real child processes of the built server (`npm run build` first),
 * through a PgBouncer in transaction mode and on a three-master Redis Cluster, with a webhook receiver and an SMTP
 * server of the test's own. A burst of writes goes
 * through both APIs while one worker is killed with SIGKILL and the SMTP server holds its replies; then every promise
 * is checked and the figures printed: no event lost, each document's events first delivered in order, every request
 * the receiver saw more than once backed by as many recorded attempts, no 5xx but documented 503s, every e-mail sent,
 * and none sent twice but where the worker sending it was killed after the server took it (shown as `unknown`).
 */
const DOCUMENTS = 12;
const ROUNDS = 8;
const INVOICES = 6;
/** How long the SMTP server holds its reply to the first messages: past MAIL_TIMEOUT_MS, so the sender gives up on them. */
const SMTP_STALL_MS = 3000;
/** PostgreSQL connections PgBouncer opens for the whole fleet (each API pools 10, each worker 10). */
const SERVER_CONNECTIONS = 6;

const ENV = {
  FLUSSO_ENV: 'development',
  LOG_LEVEL: 'error',
  WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s,2s',
  WEBHOOK_TIMEOUT_MS: '1000',
  // Fewer than the documents due at once: neither worker can claim all of them, so both have requests in flight.
  WEBHOOK_CONCURRENCY: '4',
  MAIL_RETRY_SCHEDULE: '500ms,1s,2s',
  MAIL_TIMEOUT_MS: '1000',
  MAIL_FROM: 'Flusso <no-reply@flusso.test>',
  SDI_SANDBOX_DELAYS: '100ms,100ms',
  RATE_LIMIT_POINTS: '100000',
  // Pointing nowhere: every process must use the cluster.
  REDIS_URL: 'redis://127.0.0.1:1',
};

interface Answer {
  api: number;
  status: number;
  code?: string;
}

describe('a fleet of two APIs and two workers on a Redis Cluster', () => {
  const children: ChildProcess[] = [];
  let cluster: RedisCluster | undefined;
  let bouncer: PgBouncer | undefined;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let db: DataSource | undefined;
  let receiver: (Receiver & { url: string }) | undefined;
  let smtp: SMTPServer | undefined;
  const apis: string[] = [];
  const workers: ChildProcess[] = [];
  const answers: Answer[] = [];
  /** Messages the SMTP server confirmed (250 sent on an open connection): their Message-ID, and when their data ended. */
  const mailsAccepted: Array<{ id: string; at: number }> = [];
  /** What the SMTP server did with each message, for the failure message. */
  const mailLog: string[] = [];
  let smtpHeld = 0;
  let env: Record<string, string> = {};

  function spawnProcess(script: string, extra: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, ...extra }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${script.split('/').pop()} ${child.pid}] ${chunk.toString()}`));
    children.push(child);
    return child;
  }

  async function startApi(): Promise<string> {
    const port = await freePort();
    spawnProcess('dist/server/src/main.js', { PORT: String(port), HOST: '127.0.0.1' });
    const base = `http://127.0.0.1:${port}/api/v1`;
    await waitFor(
      () =>
        fetch(`${base}/companies`).then(
          (response) => response.status === 401,
          () => false,
        ),
      `the API on port ${port}`,
      60_000,
    );
    return base;
  }

  /** A request through API `i`; its status (and error code) is kept for the figures. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever the answer carries
  async function call(i: number, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${apis[i % apis.length]}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : null;
    answers.push({ api: i % apis.length, status: response.status, code: parsed?.code });
    return { status: response.status, body: parsed };
  }

  beforeAll(async () => {
    if (!existsSync('dist/server/src/main.js')) throw new Error('the fleet runs the built server: npm run build first');
    cluster = await RedisCluster.start(3);
    database = await createTestDatabase();
    bouncer = await PgBouncer.start({ serverConnections: SERVER_CONNECTIONS });
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const hold = smtpHeld-- > 0 ? SMTP_STALL_MS : 0;
          const ended = Date.now();
          setTimeout(() => {
            void simpleParser(Buffer.concat(chunks)).then((mail) => {
              // A server that could not confirm has not taken the message: the sender will try again.
              const closed = (session as unknown as { closed?: boolean }).closed;
              if (!closed) mailsAccepted.push({ id: mail.messageId ?? '', at: ended });
              mailLog.push(
                `${new Date(ended).toISOString()} connection ${session.id}: ${mail.messageId} (${mail.subject}) held ${hold} ms, ${closed ? 'the sender had gone' : 'confirmed'} ${Date.now() - ended} ms after its data`,
              );
              callback();
            });
          }, hold);
        });
      },
      onClose(session) {
        mailLog.push(`${new Date().toISOString()} connection ${session.id} closed`);
        (session as unknown as { closed?: boolean }).closed = true;
      },
    });
    // A killed worker's connection resets under a reply being written: the server's to note, not the test's to throw.
    smtp.on('error', (error: Error) => mailLog.push(`${new Date().toISOString()} ${error.message}`));
    await new Promise<void>((resolve) => smtp!.listen(0, '127.0.0.1', resolve));
    receiver = await Receiver.start();
    // Slow enough that each worker always has requests in flight: the one killed leaves some unanswered.
    receiver.answer = () => ({ status: 204, delayMs: 600 });
    env = {
      ...ENV,
      DATABASE_URL: bouncer.url(database.url),
      // LISTEN and migrations need a session: PostgreSQL itself.
      DATABASE_DIRECT_URL: database.url,
      REDIS_CLUSTER_NODES: cluster.nodes,
      REDIS_PREFIX: process.env.REDIS_PREFIX!,
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    };
    db = createDataSource(database.url);
    await db.initialize();
    apis.push(...(await Promise.all([startApi(), startApi()])));
    workers.push(spawnProcess('dist/server/src/worker.js'), spawnProcess('dist/server/src/worker.js'));
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(
      children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)),
    );
    // Each step bounded and the processes stopped whatever happens before.
    const bounded = (closing: Promise<unknown> | undefined) =>
      Promise.race([closing?.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    try {
      await bounded(receiver?.close());
      await bounded(smtp && new Promise<void>((resolve) => smtp!.close(() => resolve())));
      await bounded(db?.destroy());
    } finally {
      await bounded(bouncer?.stop());
      await bounded(database?.drop());
      await cluster?.close();
    }
  }, 120_000);

  it('loses no event, keeps each document in order, shows every duplicate and sends no e-mail twice unseen', async () => {
    const started = Date.now();
    const tenant = await createTenant(db!, { name: 'Rossi Forniture S.r.l.', settings: loadConfig(env) });
    const key = tenant.apiKey;
    const fixtures = new Fixtures(db!, tenant.companyId);
    const categories = [await fixtures.category({ name: 'Utenze' }), await fixtures.category({ name: 'Servizi' })];
    const documents = [];
    for (let i = 0; i < DOCUMENTS; i++) documents.push(await fixtures.document({ number: `FV-${i}` }));
    const endpoint = await call(0, 'POST', '/webhook-endpoints', key, { url: receiver!.url });
    expect(endpoint.status).toBe(201);
    receiver!.secrets = [endpoint.body.secret];

    // E-invoices issued through both APIs, taken by the SDI sandbox on the workers.
    const invoices: string[] = [];
    for (let i = 0; i < INVOICES; i++) {
      const issued = await call(
        i,
        'POST',
        `/companies/${tenant.companyId}/documents/invoice?issue=true`,
        key,
        exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number: `FT-${i}` }),
      );
      expect(issued.status).toBe(201);
      invoices.push(issued.body.data[0].id);
    }
    await waitFor(
      async () => {
        const rows: Array<{ status: string }> = await db!.query(`SELECT status FROM documents WHERE id = ANY($1::uuid[])`, [invoices]);
        return rows.every((row) => ['SENT', 'DELIVERED', 'NOT_DELIVERED'].includes(row.status));
      },
      'the SDI sandbox to take the invoices',
      60_000,
    );

    // The burst: every document changed ROUNDS times in a row, round r through API r % 2, documents side by side; the
    // courtesy copies shared meanwhile while the SMTP server holds its replies; a worker killed once deliveries flow.
    smtpHeld = INVOICES;
    const burst = Promise.all(
      documents.map(async (document) => {
        for (let round = 0; round < ROUNDS; round++) {
          await call(round, 'PATCH', `/companies/${tenant.companyId}/documents/${document.id}`, key, { category_id: categories[round % 2].id });
        }
      }),
    );
    const shares = Promise.all(
      invoices.map((id, i) =>
        call(i + 1, 'POST', `/companies/${tenant.companyId}/documents/${id}/share-invoice`, key, {
          to: `cliente${i}@bianchi.test`,
          reply_to: 'fatture@rossi.test',
        }),
      ),
    );
    // Killed once the burst's own deliveries flow (the invoices' events come first).
    const burstDocuments = new Set(documents.map((document) => document.id));
    await waitFor(() => receiver!.received.filter((r) => burstDocuments.has(r.body.data?.id)).length >= 2 * DOCUMENTS, 'the burst delivered', 60_000);
    const killed = workers[0];
    const exited = new Promise((resolve) => killed.once('exit', resolve));
    killed.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    await burst;
    expect((await shares).map((share) => share.status)).toEqual(Array(INVOICES).fill(202));

    // Every event of the burst reaches the receiver; every share is sent.
    const events: Array<{ id: string; document_id: string; version: number }> = await db!.query(
      `SELECT id, payload->>'id' AS document_id, (payload->>'version')::int AS version FROM events
        WHERE company_id = $1 AND type = 'document.updated' AND payload->>'id' = ANY($2::text[]) ORDER BY created_at, id`,
      [tenant.companyId, documents.map((document) => document.id)],
    );
    expect(events).toHaveLength(DOCUMENTS * ROUNDS);
    await waitFor(() => events.every((event) => receiver!.received.some((r) => r.body.id === event.id)), 'every event delivered', 120_000);
    // Every delivery done, the shares' e-mails and those the killed worker held (sent again once their lease ended).
    await waitFor(
      async () => {
        const [{ pending }] = await db!.query(
          `SELECT count(*)::int AS pending FROM deliveries d
            WHERE d.status <> 'succeeded' AND (d.endpoint_id = $1 OR d.id IN (SELECT delivery_id FROM invoice_shares WHERE company_id = $2))`,
          [endpoint.body.id, tenant.companyId],
        );
        return pending === 0;
      },
      'every delivery done',
      120_000,
    ).catch(async (error: Error) => {
      const stuck = await db!.query(
        `SELECT d.channel, d.status, d.attempts, d.next_attempt_at, d.waiting, (SELECT array_agg(a.outcome || ' ' || coalesce(a.error, '')) FROM delivery_attempts a WHERE a.delivery_id = d.id) AS tried
           FROM deliveries d WHERE d.status <> 'succeeded' AND (d.endpoint_id = $1 OR d.id IN (SELECT delivery_id FROM invoice_shares WHERE company_id = $2)) LIMIT 10`,
        [endpoint.body.id, tenant.companyId],
      );
      throw new Error(`${error.message}; not done: ${JSON.stringify(stuck)}`);
    });
    const settledAt = Date.now();

    // Order: each document's events first arrive in the order of their versions.
    const firstArrival = new Map<string, number>();
    receiver!.received.forEach((r, i) => firstArrival.has(r.body.id) || firstArrival.set(r.body.id, i));
    const outOfOrder = documents.filter((document) => {
      const arrivals = events.filter((event) => event.document_id === document.id).sort((a, b) => firstArrival.get(a.id)! - firstArrival.get(b.id)!);
      return arrivals.some((event, i) => i > 0 && event.version < arrivals[i - 1].version);
    });

    // Duplicates: a request the receiver saw n times has at least n recorded attempts.
    const attempts: Array<{ event_id: string; attempts: number; outcomes: string[] }> = await db!.query(
      `SELECT d.event_id, count(a.id)::int AS attempts, array_agg(a.outcome) AS outcomes FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id
        WHERE d.endpoint_id = $1 GROUP BY d.event_id`,
      [endpoint.body.id],
    );
    const recorded = new Map(attempts.map((row) => [row.event_id, row.attempts]));
    const seen = new Map<string, number>();
    for (const r of receiver!.received) seen.set(r.body.id, (seen.get(r.body.id) ?? 0) + 1);
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    const unknown = attempts.reduce((sum, row) => sum + row.outcomes.filter((outcome) => outcome === 'unknown').length, 0);
    const unseenDuplicates = [...seen].filter(([id, n]) => n > (recorded.get(id) ?? 0));

    // E-mails, by Message-ID: every attempt at a share's e-mail carries `<delivery id@flusso.test>`. A copy more than
    // once is the at-least-once of the worker killed after the server took the message and before it recorded so: that
    // copy was handed over before the kill, and its attempt shows as `unknown`. Any other way of sending twice (two
    // workers sending at once, a late confirmation) fails, and so does a share not recorded as sent exactly once.
    const mails: Array<{ message_id: string; attempts: number; succeeded: number; failed: number; unknown: number }> = await db!.query(
      `SELECT '<' || s.delivery_id || '@flusso.test>' AS message_id, count(a.id)::int AS attempts,
              count(a.id) FILTER (WHERE a.outcome = 'succeeded')::int AS succeeded,
              count(a.id) FILTER (WHERE a.outcome = 'failed')::int AS failed, count(a.id) FILTER (WHERE a.outcome = 'unknown')::int AS unknown
         FROM invoice_shares s LEFT JOIN delivery_attempts a ON a.delivery_id = s.delivery_id WHERE s.company_id = $1 GROUP BY s.delivery_id`,
      [tenant.companyId],
    );
    const copies = (mail: { message_id: string }, before = Infinity) => mailsAccepted.filter(({ id, at }) => id === mail.message_id && at < before).length;
    const mailsAmiss = mails.filter((mail) => copies(mail) > 1 + mail.unknown || copies(mail, killedAt) < copies(mail) - 1 || mail.succeeded !== 1);
    const mailsResent = mails.filter((mail) => copies(mail) > 1 && !mailsAmiss.includes(mail));
    const mailsUnsent = mails.filter((mail) => copies(mail) === 0);
    const mailsUnknown = mailsAccepted.filter(({ id }) => !mails.some((mail) => mail.message_id === id));
    const sum = (key: 'attempts' | 'failed' | 'unknown') => mails.reduce((total, mail) => total + mail[key], 0);

    const serverErrors = answers.filter((answer) => answer.status >= 500 && !(answer.status === 503 && answer.code === 'service_unavailable'));
    const statuses = answers.reduce<Record<number, number>>((count, answer) => ({ ...count, [answer.status]: (count[answer.status] ?? 0) + 1 }), {});

    process.stdout.write(
      [
        `fleet: 2 APIs, 2 workers (one killed with SIGKILL), PgBouncer in transaction mode (${SERVER_CONNECTIONS} server connections), Redis Cluster of 3 masters`,
        `  requests: ${answers.length} (${Object.entries(statuses)
          .map(([status, n]) => `${n} × ${status}`)
          .join(', ')}), 5xx other than documented 503: ${serverErrors.length}`,
        `  events: ${events.length}, delivered: ${events.filter((event) => seen.has(event.id)).length}, lost: ${events.filter((event) => !seen.has(event.id)).length}`,
        `  webhook requests received: ${receiver!.received.length}, events received more than once: ${duplicates}, without as many attempts recorded: ${unseenDuplicates.length}, attempts recorded unknown: ${unknown}`,
        `  documents out of order: ${outOfOrder.length} of ${DOCUMENTS}`,
        `  e-mails: ${INVOICES} shared, ${mailsAccepted.length} accepted by the SMTP server, unsent: ${mailsUnsent.length}; sent again after an attempt the killed worker did not live to record (shown unknown, same Message-ID): ${mailsResent.length}, sent twice otherwise or not recorded as sent once: ${mailsAmiss.length}; ${sum('attempts')} attempts, ${sum('failed')} cut off by MAIL_TIMEOUT_MS while the server held its reply, ${sum('unknown')} unknown`,
        `  time: ${((settledAt - started) / 1000).toFixed(1)} s in all, ${((settledAt - killedAt) / 1000).toFixed(1)} s from the kill to everything delivered`,
        '',
      ].join('\n'),
    );

    expect(events.filter((event) => !seen.has(event.id))).toEqual([]);
    expect(outOfOrder).toEqual([]);
    expect(unseenDuplicates).toEqual([]);
    // The killed worker's requests in flight, recorded `unknown` when their lease ended.
    expect(unknown).toBeGreaterThan(0);
    expect(serverErrors).toEqual([]);
    expect(mails).toHaveLength(INVOICES);
    if (mailsUnsent.length + mailsAmiss.length + mailsUnknown.length > 0) {
      const tried = await db!.query(
        `SELECT d.message->>'subject' AS subject, a.attempted_at, a.outcome, a.duration_ms, a.error, a.response_body FROM invoice_shares s
           JOIN deliveries d ON d.id = s.delivery_id JOIN delivery_attempts a ON a.delivery_id = d.id WHERE s.company_id = $1 ORDER BY 1, 2`,
        [tenant.companyId],
      );
      throw new Error(
        `e-mails unsent: ${mailsUnsent.length}, sent twice otherwise or not recorded as sent once: ${mailsAmiss.length}, of no share: ${mailsUnknown.length}; worker ${killed.pid} killed at ${new Date(killedAt).toISOString()}\n` +
          `the SMTP server:\n${mailLog.join('\n')}\nthe attempts:\n${tried.map((row: Record<string, unknown>) => JSON.stringify(row)).join('\n')}`,
      );
    }
    // The held replies were given up on and sent again, not waited for past the lease.
    expect(sum('failed')).toBeGreaterThan(0);
    expect(receiver!.refused).toEqual([]);
  }, 240_000);
});
