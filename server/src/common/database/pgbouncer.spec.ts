import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import pg from 'pg';
import { createTenant, startApi, type TestApi, type Tenant } from '../../../test/api.js';
import { expectError } from '../../../test/expect.js';
import { Fixtures } from '../../../test/fixtures.js';
import { PgBouncer } from '../../../test/pgbouncer.js';
import { Receiver, waitFor } from '../../../test/webhook-receiver.js';
import { startWorker } from '../../../test/worker.js';
import { PgListener } from './pg-listener.js';
import { WORK_CHANNELS } from './work-channels.js';

/**
 * The API and the worker through a real PgBouncer in transaction mode (three server connections for the API's ten
 * and the worker's ten), with PostgreSQL reached directly (DATABASE_DIRECT_URL) only for what needs a session.
 */
describe('through PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let api: TestApi;
  let worker: INestApplicationContext;
  let rossi: Tenant;
  let fixtures: Fixtures;

  beforeAll(async () => {
    bouncer = await PgBouncer.start({ serverConnections: 3 });
    const env = { DB_LOCK_TIMEOUT_MS: '300', WEBHOOK_RETRY_SCHEDULE: '1s,1s' };
    api = await startApi({ ...env, LOG_LEVEL: 'warn' }, { pooler: bouncer, captureLogs: true });
    worker = await startWorker(api.config.databaseUrl, { ...env, DATABASE_DIRECT_URL: api.config.databaseDirectUrl });
    rossi = await createTenant(api);
    fixtures = new Fixtures(api.db, rossi.companyId);
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await bouncer?.stop();
  });

  /** PgBouncer's own count of the transactions it passed to this test's database. */
  const transactionsThroughBouncer = async () =>
    (await bouncer.admin('SHOW STATS'))
      .filter((row) => row.database === new URL(api.config.databaseDirectUrl).pathname.slice(1))
      .reduce((sum, row) => sum + Number(row.total_xact_count), 0);

  const documents = `/api/v1/companies/${'{company}'}/documents`;
  const path = (template: string) => template.replace('{company}', rossi.companyId);

  it('runs with named statements off and without startup parameters PgBouncer refuses', () => {
    expect(api.config.databaseUrl).toContain(`:${bouncer.port}/`);
    expect(api.config.database).toMatchObject({ pooled: true, preparedStatements: false });
  });

  it('says at start that its statements outside a transaction have no timeouts through this PgBouncer', () => {
    const warnings = api.logs.filter((line) => line.context === 'Database').map((line) => line.msg);
    expect(warnings).toEqual([expect.stringMatching(/^DATABASE_URL's pooled server connections have no statement_timeout or lock_timeout: /)]);
  });

  it('serves writes and lists, many at once, over fewer server connections than clients', async () => {
    const before = await transactionsThroughBouncer();
    const category = await api.http.post(path('/api/v1/companies/{company}/categories')).set(rossi.auth).send({ name: 'Utenze' }).expect(201);
    const docs = await Promise.all(Array.from({ length: 6 }, (_, i) => fixtures.document({ number: `FV-${i}` })));
    // Parallel changes and list pages: each list shape would be a named statement, prepared on one server connection
    // and looked for on another, if names were on.
    await Promise.all([
      ...docs.map((doc) =>
        api.http
          .patch(`${path(documents)}/${doc.id}`)
          .set(rossi.auth)
          .send({ category_id: category.body.id })
          .expect(200),
      ),
      ...Array.from({ length: 20 }, (_, i) =>
        api.http
          .get(`${path(documents)}?page_size=${2 + (i % 4)}&sort=${i % 2 ? '-' : ''}creation_date`)
          .set(rossi.auth)
          .expect(200),
      ),
    ]);
    const listed = await api.http
      .get(`${path(documents)}?page_size=100`)
      .set(rossi.auth)
      .expect(200);
    const categoryOf = new Map(listed.body.data.map((d: { id: string; category_id: string | null }) => [d.id, d.category_id]));
    for (const doc of docs) expect(categoryOf.get(doc.id)).toBe(category.body.id);
    expect(await transactionsThroughBouncer()).toBeGreaterThan(before + 26);
  });

  it('replays an idempotent POST from the stored answer, and creates once', async () => {
    const send = () =>
      api.http.post(path('/api/v1/companies/{company}/categories')).set(rossi.auth).set('Idempotency-Key', 'pgbouncer-1').send({ name: 'Affitti' });
    const first = await send().expect(201);
    const retry = await send().expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await api.db.query('SELECT count(*)::int AS n FROM categories WHERE company_id = $1 AND name = $2', [rossi.companyId, 'Affitti'])).toEqual([
      { n: 1 },
    ]);
  });

  it('sets the timeouts in each transaction, where PgBouncer keeps them, and leaves none on its server connections', async () => {
    const doc = await fixtures.document();
    const holder = new pg.Client({ connectionString: api.config.databaseDirectUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM documents WHERE id = $1 FOR UPDATE', [doc.id]);
      // Without DB_LOCK_TIMEOUT_MS in the transaction, this change would wait for the lock as long as it is held.
      const blocked = await api.http
        .patch(`${path(documents)}/${doc.id}`)
        .set(rossi.auth)
        .send({ notes: 'bloccato' })
        .timeout(10_000);
      expectError(blocked, 503, 'service_unavailable');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    // Every server connection PgBouncer holds answers a newcomer with PostgreSQL's defaults.
    const clients = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const client = new pg.Client({ connectionString: api.config.databaseUrl });
        await client.connect();
        await client.query('BEGIN');
        return client;
      }),
    );
    try {
      for (const client of clients) {
        const { rows } = await client.query(`SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement`);
        expect(rows).toEqual([{ lock: '0', statement: '0' }]);
      }
    } finally {
      for (const client of clients) await client.query('ROLLBACK').then(() => client.end());
    }
  });

  it('delivers webhooks, the worker woken by NOTIFY on its direct LISTEN connection', async () => {
    const listener = worker.get(PgListener);
    let woken = 0;
    listener.on(WORK_CHANNELS.events, () => woken++);
    const receiver = await Receiver.start();
    try {
      const endpoint = await api.http.post('/api/v1/webhook-endpoints').set(rossi.auth).send({ url: receiver.url }).expect(201);
      receiver.secrets = [endpoint.body.secret];
      const doc = await fixtures.document();
      await api.http
        .patch(`${path(documents)}/${doc.id}`)
        .set(rossi.auth)
        .send({ notes: 'via PgBouncer' })
        .expect(200);
      await waitFor(() => woken > 0, 'a NOTIFY of the new event on the LISTEN connection');
      await waitFor(() => receiver.received.some((r) => r.body.data.id === doc.id), 'the webhook of the change');
      expect(receiver.refused).toEqual([]);
      // The LISTEN session is PostgreSQL's own, not one of PgBouncer's clients.
      const direct = new pg.Client({ connectionString: api.config.databaseDirectUrl });
      await direct.connect();
      try {
        const { rows } = await direct.query(`SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'flusso-listener'`);
        // The session's last statement is one of its LISTENs (it listens on every work channel in turn).
        const listens = Object.values(WORK_CHANNELS).map((channel) => `LISTEN ${channel}`);
        expect(rows.map((row) => row.query).filter((query) => listens.includes(query))).toHaveLength(1);
      } finally {
        await direct.end();
      }
      expect((await bouncer.admin('SHOW CLIENTS')).filter((client) => client.application_name === 'flusso-listener')).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('through a PgBouncer whose server connections have the timeouts (connect_query, as README recommends)', () => {
  it('says nothing at start, and bounds a statement outside a transaction', async () => {
    const bouncer = await PgBouncer.start({ connectQuery: 'SET statement_timeout = 15000; SET lock_timeout = 3000' });
    const api = await startApi({ LOG_LEVEL: 'warn' }, { pooler: bouncer, captureLogs: true }).catch(async (error) => {
      await bouncer.stop();
      throw error;
    });
    try {
      expect(api.logs.filter((line) => line.context === 'Database')).toEqual([]);
      expect(await api.db.query(`SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock`)).toEqual([
        { statement: '15s', lock: '3s' },
      ]);
    } finally {
      await api.close();
      await bouncer.stop();
    }
  });
});
