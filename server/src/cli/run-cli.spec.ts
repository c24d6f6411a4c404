import 'reflect-metadata';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase } from '../../test/database.js';
import { invoiceToXml } from '../invoices/fatturapa/index.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { runCli } from './run-cli.js';

interface Run {
  code: number;
  out: string[];
  err: string[];
  /** The one JSON object a --json command printed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever member a command printed
  json: Record<string, any>;
}

describe('the operator CLI', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let env: NodeJS.ProcessEnv;

  async function cli(...args: string[]): Promise<Run> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
    const json = args.includes('--json') && out.length === 1 ? JSON.parse(out[0]) : {};
    return { code, out, err, json };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { ...process.env, DATABASE_URL: database.url, PORT: '3999', FLUSSO_ENV: 'development' };
  });

  afterAll(() => database.drop());

  it('prints the demo as one JSON object, and reuses the demo company on the next run', async () => {
    const first = await cli('demo', '--json', '--transactions', '80', '--documents', '12');
    expect(first.code).toBe(0);
    expect(first.out).toHaveLength(1);
    expect(first.json).toMatchObject({
      api_key: expect.stringMatching(/^fls_dev_[A-Za-z0-9]{32}$/),
      company_id: expect.any(String),
      integrator_id: expect.any(String),
      base_url: 'http://localhost:3999/api/v1',
      seeded: true,
      counts: expect.objectContaining({ transactions: 80, documents: 12 }),
    });

    const second = await cli('demo', '--json');
    expect(second.json).toMatchObject({ company_id: first.json.company_id, integrator_id: first.json.integrator_id, seeded: false });
    expect(second.json.api_key).not.toBe(first.json.api_key);
  });

  it('creates an integrator, a company, a grant and keys, lists and revokes them', async () => {
    const integrator = (await cli('integrator:create', '--name', 'Gestionale Rossi', '--json')).json;
    const company = (await cli('company:create', '--name', 'Bar Sport S.n.c.', '--vat-number', '01234567897', '--json')).json;
    expect(company).toMatchObject({ vat_number: 'IT01234567897', country: 'IT', fiscal_regime: 'RF01' });
    expect((await cli('company:grant', '--integrator', integrator.id, '--company', company.id, '--json')).json).toMatchObject({
      integrator_id: integrator.id,
      company_id: company.id,
    });

    const key = (await cli('key:create', '--integrator', integrator.id, '--environment', 'production', '--name', 'live', '--json')).json;
    expect(key.key).toMatch(/^fls_prod_/);
    const listed = (await cli('key:list', '--integrator', integrator.id, '--json')).json;
    expect(listed.keys).toEqual([expect.objectContaining({ id: key.id, name: 'live', permissions: ['*'], revoked_at: null })]);
    expect(JSON.stringify(listed)).not.toContain(key.key);

    expect(key.permissions).toEqual(['*']);
    const restricted = await cli('key:create', '--integrator', integrator.id, '--permissions', 'documents:read,reconciliations:write', '--json');
    expect(restricted.json.permissions).toEqual(['documents:read', 'reconciliations:write']);
    expect((await cli('key:list', '--integrator', integrator.id)).out.join('\n')).toContain('[documents:read,reconciliations:write]');
    const refused = await cli('key:create', '--integrator', integrator.id, '--permissions', 'documents:delete');
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([expect.stringMatching(/^flusso: Unknown permission "documents:delete"; use \*, accounts:read, categories:read, /)]);
    await cli('key:revoke', restricted.json.id);

    const revoked = await cli('key:revoke', key.id);
    expect(revoked.code).toBe(0);
    expect(revoked.out.join('\n')).toContain('Revoked');
    expect((await cli('key:list', '--integrator', integrator.id, '--json')).json.keys.map((k: { revoked_at: string | null }) => k.revoked_at)).not.toContain(
      null,
    );
  });

  it('imports a CSV statement, and reports every bad line of a bad one', async () => {
    const demo = (await cli('demo', '--json')).json;
    const fixture = (name: string) => fileURLToPath(new URL(`../imports/fixtures/${name}`, import.meta.url));
    const args = ['transactions:import', '--company', demo.company_id, '--account', demo.account_ids[0], '--json', '--file'];

    expect((await cli(...args, fixture('good-statement.csv'))).json).toMatchObject({ imported: 4, reconciled: 0 });
    // People read the same outcome, reconciliations included.
    expect((await cli(...args.filter((arg) => arg !== '--json'), fixture('good-statement.csv'))).out).toEqual([
      `Imported 4 transaction(s) into account ${demo.account_ids[0]}; 0 reconciled with e-invoices by their reconciliation_identifier.`,
    ]);

    const bad = await cli(...args, fixture('bad-statement.csv'));
    expect(bad.code).toBe(1);
    expect(bad.json.error.problems.map((problem: { line: number }) => problem.line)).toEqual([3, 4, 5]);
    expect(bad.err[0]).toBe('flusso: Nothing was imported: 3 lines have problems.');
  });

  it("receives a supplier's e-invoice for a company, and refuses it a second time (00404)", async () => {
    const demo = (await cli('demo', '--json')).json;
    // A supplier's invoice to the demo company (IT01234567890, the example's seller): the parties swapped.
    const invoice = exampleInvoice({ sellerVat: '07643520567', number: 'CLI-1' });
    invoice.fattura_elettronica_header.cessionario_committente.dati_anagrafici = {
      id_fiscale_iva: { id_paese: 'IT', id_codice: '01234567890' },
      anagrafica: { denominazione: 'Demo S.r.l.' },
    };
    const dir = await mkdtemp(join(tmpdir(), 'flusso-receive-'));
    const file = join(dir, 'IT07643520567_00001.xml');
    await writeFile(file, invoiceToXml(invoice));
    try {
      const received = await cli('invoices:receive', '--company', demo.company_id, file, '--json');
      expect(received.code).toBe(0);
      expect(received.json).toMatchObject({ number: 'CLI-1', direction: 'RECEIVED', status: 'DELIVERED', file_name: 'IT07643520567_00001.xml' });
      const again = await cli('invoices:receive', '--company', demo.company_id, file);
      expect(again.code).toBe(1);
      expect(again.err[0]).toMatch(/^flusso: 00404: The company already has invoice CLI-1 of 2026 \(TD01\) from this seller/);
      const unknown = await cli('invoices:receive', '--company', 'acme', file);
      expect([unknown.code, unknown.err]).toEqual([1, ['flusso: Company was not found.']]);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('adds, lists, rotates, disables, enables and removes webhook endpoints, and shows their deliveries', async () => {
    const integrator = (await cli('integrator:create', '--name', 'Gestionale Webhook', '--json')).json;
    const added = (await cli('webhook:add', '--integrator', integrator.id, '--url', 'http://127.0.0.1:4000/hooks', '--description', 'ERP', '--json')).json;
    expect(added).toMatchObject({
      url: 'http://127.0.0.1:4000/hooks',
      description: 'ERP',
      enabled: true,
      enabled_events: ['*'],
      secret: expect.stringMatching(/^whsec_/),
    });
    const chosen = (
      await cli(
        'webhook:add',
        '--integrator',
        integrator.id,
        '--url',
        'http://127.0.0.1:4000/deleted',
        '--events',
        'document.deleted, document.updated',
        '--json',
      )
    ).json;
    expect(chosen.enabled_events).toEqual(['document.updated', 'document.deleted']);
    const unknown = await cli('webhook:add', '--integrator', integrator.id, '--url', 'http://127.0.0.1:4000/x', '--events', 'document.typo');
    expect(unknown.code).toBe(1);
    expect(unknown.err[0]).toContain('"document.typo" is not an event type');
    expect((await cli('webhook:remove', chosen.id, '--json')).code).toBe(0);
    const listed = (await cli('webhook:list', '--integrator', integrator.id, '--json')).json;
    expect(listed.endpoints).toEqual([expect.objectContaining({ id: added.id, environment: 'development', integrator_id: integrator.id })]);
    expect(JSON.stringify(listed)).not.toContain(added.secret);

    const rotated = (await cli('webhook:rotate-secret', added.id, '--json')).json;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(added.secret);
    expect((await cli('webhook:disable', added.id, '--json')).json).toMatchObject({ enabled: false, disabled_reason: 'REQUESTED' });
    expect((await cli('webhook:enable', added.id, '--json')).json).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await cli('webhook:deliveries', added.id, '--status', 'FAILED', '--json')).json).toEqual({ deliveries: [] });
    expect((await cli('webhook:deliveries', added.id, '--status', 'pending', '--json')).json).toEqual({ deliveries: [] });
    expect((await cli('webhook:deliveries', added.id)).out).toEqual(['No deliveries.']);
    expect((await cli('webhook:remove', added.id, '--json')).code).toBe(0);
    expect((await cli('webhook:list', '--integrator', integrator.id, '--json')).json.endpoints).toEqual([]);

    const refused = await cli('webhook:add', '--integrator', integrator.id, '--url', 'http://10.0.0.1/hooks');
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual(['flusso: url must reach a public or loopback address; 10.0.0.1 is a private address.']);
  });

  it('shows an attempt whose outcome is unknown (its worker died), with why', async () => {
    const integrator = (await cli('integrator:create', '--name', 'Gestionale Ignoto', '--json')).json;
    const company = (await cli('company:create', '--name', 'Ferramenta Neri S.r.l.', '--vat-number', '12345678903', '--json')).json;
    const endpoint = (await cli('webhook:add', '--integrator', integrator.id, '--url', 'http://127.0.0.1:4000/hooks', '--json')).json;
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      await db.query(
        `WITH e AS (INSERT INTO events (company_id, type, payload) VALUES ($1, 'document.updated', '{}') RETURNING id),
              d AS (INSERT INTO deliveries (channel, endpoint_id, event_id, status, attempts, completed_at)
                    SELECT 'webhook', $2, id, 'succeeded', 1, now() FROM e RETURNING id)
         INSERT INTO delivery_attempts (delivery_id, attempted_at, outcome, duration_ms, response_status, error)
         SELECT id, timestamptz '2026-03-02T09:30:00Z', 'unknown', 0, NULL, 'the worker sending it stopped before its outcome was known: the receiver may have it' FROM d
         UNION ALL SELECT id, timestamptz '2026-03-02T09:30:30Z', 'succeeded', 12, 204, NULL FROM d`,
        [company.id, endpoint.id],
      );
    } finally {
      await db.end();
    }
    const lines = (await cli('webhook:deliveries', endpoint.id)).out.join('\n').split('\n');
    expect(lines.slice(1)).toEqual([
      '    2026-03-02T09:30:00.000Z  UNKNOWN    ---  0 ms  the worker sending it stopped before its outcome was known: the receiver may have it',
      '    2026-03-02T09:30:30.000Z  SUCCEEDED  204  12 ms',
    ]);
  });

  it('shows the installation at a glance, and what asks for attention', async () => {
    await cli('demo', '--json');
    const integrator = (await cli('integrator:create', '--name', 'Gestionale Stato', '--json')).json;
    const company = (await cli('company:create', '--name', 'Cartoleria Blu S.r.l.', '--json')).json;
    const endpoint = (await cli('webhook:add', '--integrator', integrator.id, '--url', 'http://127.0.0.1:4000/status', '--json')).json;
    const status = async () => (await cli('status', '--json')).json;
    const mail = (s: Run['json']) => s.deliveries.find((d: { channel: string }) => d.channel === 'mail') ?? { pending: 0, overdue: 0, failed_last_24_hours: 0 };
    const before = await status();
    expect(before.queues).toEqual({
      sdi: { waiting: expect.any(Number), active: expect.any(Number), delayed: expect.any(Number), failed: expect.any(Number) },
      f24: { waiting: expect.any(Number), active: expect.any(Number), delayed: expect.any(Number), failed: expect.any(Number) },
    });
    expect(before.database.max_connections).toBeGreaterThan(0);
    expect(before.database.connections).toContainEqual({ application: 'flusso', connections: expect.any(Number) });
    // The demo's e-invoices issued to the SDI sandbox, with no worker running to transmit them.
    expect(before.e_invoices_waiting_for_sdi.count).toBeGreaterThan(0);

    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      // A worker stopped for ten minutes: an event not fanned out, a mail overdue (and one not yet due), a mail failed
      // for good an hour ago, an endpoint Flusso disabled, an e-invoice issued an hour ago.
      await db.query(`INSERT INTO events (company_id, type, payload, created_at) VALUES ($1, 'document.updated', '{}', now() - interval '10 minutes')`, [
        company.id,
      ]);
      await db.query(
        `INSERT INTO deliveries (channel, message, status, next_attempt_at, completed_at) VALUES
           ('mail', '{}', 'pending', now() - interval '5 minutes', NULL),
           ('mail', '{}', 'pending', now() + interval '5 minutes', NULL),
           ('mail', '{}', 'failed', now() - interval '1 hour', now() - interval '1 hour'),
           ('mail', '{}', 'failed', now() - interval '2 days', now() - interval '2 days')`,
      );
      await db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing', disabled_at = now() WHERE id = $1`, [endpoint.id]);
      await db.query(
        `UPDATE invoices SET transmission_requested_at = now() - interval '1 hour'
          WHERE document_id = (SELECT i.document_id FROM invoices i JOIN documents d ON d.id = i.document_id
                                WHERE d.status = 'CREATED' AND i.transmission_requested_at IS NOT NULL LIMIT 1)`,
      );
      const after = await status();
      expect(after.outbox.events_waiting).toBe(before.outbox.events_waiting + 1);
      expect(Date.parse(after.outbox.oldest_waiting_since)).toBeLessThanOrEqual(Date.now() - 9 * 60_000);
      expect(mail(after)).toEqual({
        channel: 'mail',
        pending: mail(before).pending + 2,
        overdue: mail(before).overdue + 1,
        failed_last_24_hours: mail(before).failed_last_24_hours + 1,
      });
      expect(after.webhook_endpoints_disabled.failing).toBe((before.webhook_endpoints_disabled.failing ?? 0) + 1);
      expect(after.e_invoices_waiting_for_sdi.count).toBe(before.e_invoices_waiting_for_sdi.count);
      expect(after.attention).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\d+ event\(s\) not yet fanned out, the oldest for \d+ s: is a worker running\?$/),
          `${mail(after).overdue} mail deliveries due over 60 s ago and taken by no worker`,
          `${mail(after).failed_last_24_hours} mail deliveries failed for good in the last 24 hours`,
          expect.stringMatching(/^webhook endpoints disabled by Flusso: (.*, )?\d+ failing/),
          expect.stringMatching(/^\d+ e-invoice\(s\) still CREATED, the oldest issued \d+ s ago: is the SDI channel working\?$/),
        ]),
      );
      const text = (await cli('status')).out.join('\n');
      expect(text).toMatch(/^outbox {7}\d+ event\(s\) waiting, the oldest since /m);
      expect(text).toContain(`mail: ${mail(after).pending} pending, ${mail(after).overdue} overdue, ${mail(after).failed_last_24_hours} failed in 24 h`);
      expect(text).toMatch(/^attention\n {2}- /m);
    } finally {
      await db.query(`DELETE FROM deliveries WHERE channel = 'mail' AND message = '{}'`);
      await db.query(`DELETE FROM events WHERE company_id = $1`, [company.id]);
      await db.end();
    }
  });

  it('says in one line when a service is unreachable', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['key:list'],
      { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/flusso' },
      {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      },
    );
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([expect.stringMatching(/^flusso: PostgreSQL is not reachable at 127\.0\.0\.1:1 /)]);
  });

  it('tells a missing database from an unreachable server, and a malformed URL from both', async () => {
    const lines: string[] = [];
    const missing = await runCli(
      ['webhook:list'],
      { ...env, DATABASE_URL: `${database.url}_missing` },
      { out: () => undefined, err: (line) => lines.push(line) },
    );
    expect(missing).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(/^flusso: PostgreSQL at \S+ has no such database .*; create it with 'npm run cli -- migrate', or set DATABASE_URL\.$/),
    ]);

    for (const [name, value] of [
      ['DATABASE_URL', 'postgres//postgres:secret@127.0.0.1/flusso'],
      ['REDIS_URL', 'http://127.0.0.1:6379'],
    ]) {
      lines.length = 0;
      const out: string[] = [];
      const code = await runCli(['key:list', '--json'], { ...env, [name]: value }, { out: (line) => out.push(line), err: (line) => lines.push(line) });
      expect(code).toBe(1);
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^flusso: ${name} must be a .* URL such as `))]);
      expect(lines[0]).not.toContain('secret');
      expect(JSON.parse(out[0])).toEqual({ error: { message: expect.stringContaining(name) } });
    }
  });

  it("explains a command's usage mistakes in one flusso line, and as JSON with --json", async () => {
    const missing = await cli('webhook:add', '--url', 'http://127.0.0.1:4000/hooks', '--json');
    expect(missing.code).toBe(1);
    expect(missing.err).toEqual(["flusso: required option '--integrator <id>' not specified (add --help for the commands and their options)"]);
    expect(missing.json).toEqual({ error: { message: "required option '--integrator <id>' not specified" } });
    const bad = await cli('webhook:deliveries', '00000000-0000-0000-0000-000000000000', '--status', 'lost');
    expect(bad.code).toBe(1);
    expect(bad.out).toEqual([]);
    expect(bad.err).toEqual([expect.stringMatching(/^flusso: option '--status <status>' argument 'lost' is invalid\. /)]);
    const none = await cli('webhook:deliveries', '00000000-0000-0000-0000-000000000000', '--limit', '0');
    expect(none.code).toBe(1);
    expect(none.err).toEqual([expect.stringMatching(/^flusso: option '--limit <n>' argument '0' is invalid\. Not from 1 to 100\./)]);
  });

  it('rebuilds the demo at any size, even without documents (no e-invoice files to continue numbering after)', async () => {
    const empty = await cli('demo', '--reset', '--documents', '0', '--transactions', '0', '--json');
    expect(empty.err).toEqual([]);
    expect(empty.code).toBe(0);
    expect(empty.json).toMatchObject({ seeded: true, counts: expect.objectContaining({ documents: 0, transactions: 0 }) });
  });

  it('explains operator mistakes without a stack trace', async () => {
    const run = await cli('key:create', '--integrator', 'nope', '--json');
    expect(run.code).toBe(1);
    expect(run.err).toEqual(['flusso: Integrator id "nope" is not a uuid.']);
    expect(run.json).toEqual({ error: { message: 'Integrator id "nope" is not a uuid.' } });
  });
});
