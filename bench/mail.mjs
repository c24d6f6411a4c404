// Share-invoice e-mail benchmark (issue 8). A local SMTP sink (smtp-server, in this process) receives:
//   1. the baseline: nodemailer's own pooled SMTP transport (5 connections, its default, as the worker's) sending
//      BENCH_MAILS (default 2,000) courtesy copies of an invoice, composed once, all submitted at once;
//   2. Flusso: the same number of share-invoice requests through the API (built API and worker as child processes, on
//      a database and Redis prefix of their own), queued while the worker is stopped, then drained by the worker:
//      e-mails per second from the first message at the sink to the last (what the mail channel adds on top of
//      nodemailer: claiming deliveries, recording attempts), and the ratio to the baseline (target 0.8 or more);
//   3. the API's own rate of accepting shares (202s per second, BENCH_CONNECTIONS clients, default 16).
// Run with `npm run bench:mail` (builds first).
import 'reflect-metadata';
import { benchDatabaseUrl, benchEnv, freePort, freshDatabase, startApi, startWorker } from './support.mjs';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../dist/server/src/config/config.js';
import { createTenant } from '../dist/server/src/demo/seed-demo.js';
import { exampleInvoice } from '../dist/server/src/invoices/invoice-example.js';
import { courtesyCopy } from '../dist/server/src/shares/courtesy-copy.js';
import { invoiceToXml } from '../dist/server/src/invoices/fatturapa/index.js';

const MAILS = Number(process.env.BENCH_MAILS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const databaseUrl = benchDatabaseUrl('flusso_bench_mail', process.env.BENCH_DATABASE_URL);

async function waitUntil(condition, what, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The sink: takes every message, counts it and notes when the last one arrived. */
function startSink() {
  const sink = { received: 0, first: 0, last: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    maxClients: 1000,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        sink.received++;
        sink.last = performance.now();
        if (!sink.first) sink.first = sink.last;
        callback();
      });
    },
  });
  sink.listen = () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.server.address().port)));
  sink.close = () => new Promise((resolve) => server.close(resolve));
  return sink;
}

async function prepareDatabase() {
  const db = await freshDatabase(databaseUrl);
  const tenant = await createTenant(db, {
    settings: loadConfig({ ...process.env, DATABASE_URL: databaseUrl }),
    data: { documents: 10, transactions: 10, seed: 11 },
  });
  return { db, tenant };
}

const sink = startSink();
const smtpUrl = `smtp://127.0.0.1:${await sink.listen()}`;

// 1. Baseline: nodemailer pooled, the same message.
const invoice = exampleInvoice({ sellerVat: '01234567890', number: 'BENCH-1' });
const copy = courtesyCopy(invoice);
const xml = invoiceToXml(invoice);
const message = (i) => ({
  from: 'Flusso <no-reply@flusso.example>',
  to: [`cliente${i}@bench.test`],
  replyTo: 'fatture@bench.test',
  subject: copy.subject,
  text: copy.text,
  html: copy.html,
  attachments: [{ filename: 'IT01234567890_00001.xml', content: Buffer.from(xml).toString('base64'), encoding: 'base64', contentType: 'application/xml' }],
});
const transport = nodemailer.createTransport(`${smtpUrl}?pool=true`);
let started = performance.now();
await Promise.all(Array.from({ length: MAILS }, (_, i) => transport.sendMail(message(i))));
const baselineRate = MAILS / ((performance.now() - started) / 1000);
transport.close();

// 2 and 3. Flusso.
const { db, tenant } = await prepareDatabase();
const apiPort = await freePort();
const env = benchEnv(databaseUrl, { SMTP_URL: smtpUrl, SDI_SANDBOX_DELAYS: '10ms,10ms' });
const api = startApi(env, apiPort);
let worker;
const base = `http://127.0.0.1:${apiPort}/api/v1`;
const headers = { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' };
try {
  await waitUntil(async () => {
    try {
      return (await fetch(`${base}/companies`, { headers })).ok;
    } catch {
      return false;
    }
  }, 'the API');
  const created = await fetch(`${base}/companies/${tenant.companyId}/documents/invoice?issue=true`, {
    method: 'POST',
    headers,
    body: JSON.stringify(exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number: 'BENCH-1' })),
  });
  if (created.status !== 201) throw new Error(`creating the invoice answered ${created.status}: ${await created.text()}`);
  const documentId = (await created.json()).data[0].id;
  // A courtesy copy follows the invoice to the SDI: the sandbox (in the worker) takes it first, then the worker stops
  // so that the shares queue up.
  worker = startWorker(env);
  await waitUntil(async () => {
    const document = await (await fetch(`${base}/companies/${tenant.companyId}/documents/${documentId}`, { headers })).json();
    return document.status !== 'CREATED';
  }, 'the SDI sandbox');
  worker.kill('SIGTERM');
  await new Promise((resolve) => worker.once('exit', resolve));

  const before = sink.received;
  let next = 0;
  started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < MAILS) {
        const i = next++;
        const response = await fetch(`${base}/companies/${tenant.companyId}/documents/${documentId}/share-invoice`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ to: `cliente${i}@bench.test`, reply_to: 'fatture@bench.test' }),
        });
        if (response.status !== 202) throw new Error(`share answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      }
    }),
  );
  const acceptRate = MAILS / ((performance.now() - started) / 1000);

  sink.first = 0;
  worker = startWorker(env);
  await waitUntil(() => sink.received - before >= MAILS, 'the shares to reach the sink');
  // From the first message at the sink to the last: the worker's steady rate, without its start-up.
  const drainRate = (MAILS - 1) / ((sink.last - sink.first) / 1000);

  // The worker records attempts in batches after the sink has the messages: count once the last batch is recorded.
  const outcome = async () =>
    (
      await db.query(
        `SELECT count(*) FILTER (WHERE status = 'pending' AND attempts = 0)::int AS unrecorded, count(*) FILTER (WHERE status <> 'succeeded')::int AS failed
           FROM deliveries WHERE channel = 'mail'`,
      )
    )[0];
  await waitUntil(async () => (await outcome()).unrecorded === 0, 'the attempts to be recorded', 30_000);
  const { failed } = await outcome();
  console.log(`e-mails: ${MAILS} courtesy copies (${Buffer.byteLength(copy.html) + xml.length} bytes of HTML and XML each) to a local SMTP sink`);
  console.log(`  nodemailer pooled, direct:        ${baselineRate.toFixed(0)} e-mails/s`);
  console.log(`  Flusso worker (mail deliveries):  ${drainRate.toFixed(0)} e-mails/s (first to last message)`);
  console.log(`  ratio:                            ${(drainRate / baselineRate).toFixed(2)} (target 0.8 or more)`);
  console.log(`  API accepting shares (202):       ${acceptRate.toFixed(0)} requests/s from ${CONNECTIONS} clients`);
  console.log(`  deliveries not succeeded:         ${failed}`);
} finally {
  worker?.kill('SIGTERM');
  api.kill('SIGTERM');
  await db.destroy();
  await sink.close();
}
