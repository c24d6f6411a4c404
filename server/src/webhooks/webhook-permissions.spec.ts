import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { Receiver, waitFor } from '../../test/webhook-receiver.js';
import { startWorker } from '../../test/worker.js';
import { allows, normalizePermissions } from '../common/auth/permissions.js';
import type { Document } from '../documents/document.entity.js';
import { WORK_CHANNELS } from '../common/database/work-channels.js';
import { runCli } from '../cli/run-cli.js';
import { databaseBefore } from '../../test/database.js';
import { WebhookEndpointPermissions1795454600000 } from '../../../migrations/1795454600000-webhook-endpoint-permissions.js';

/** Keys of one integrator, from everything to `webhooks:write` alone. */
const KEYS = [
  '*',
  'documents:read,webhooks:write',
  'documents:write,webhooks:write',
  'webhooks:write',
  'webhooks:read',
  'documents:read',
  'flows:write,webhooks:write',
  'reconciliations:write,transactions:read,webhooks:write',
] as const;

/** What a key needs to point an endpoint somewhere, rotate its secret or replay a document event, in the guard's order. */
function expected(key: string): { status: number; required?: string } {
  const held = new Set(normalizePermissions(key));
  if (!allows(held, 'webhooks:write')) return { status: 403, required: 'webhooks:write' };
  if (!allows(held, 'documents:read')) return { status: 403, required: 'documents:read' };
  return { status: 0 };
}

const outcome = (response: Response) => ({ status: response.status, required: response.body.errors?.[0]?.required_permission as string | undefined });

describe('permissions hold for what webhooks carry', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let tenant: Tenant;
  let document: Document;
  const keys: Record<string, { Authorization: string }> = {};
  const keyIds: Record<string, string> = {};
  const receivers: Receiver[] = [];
  const base = '/api/v1/webhook-endpoints';

  beforeAll(async () => {
    const env = { WEBHOOK_RETRY_SCHEDULE: '300ms,300ms', WEBHOOK_TIMEOUT_MS: '1000' };
    api = await startApi(env);
    worker = await startWorker(api.config.databaseUrl, env);
    tenant = await createTenant(api);
    document = await new Fixtures(api.db, tenant.companyId).document();
    for (const permissions of KEYS) {
      const key = await api.integrators.createKey(tenant.integratorId, 'development', permissions, permissions);
      keys[permissions] = { Authorization: `Bearer ${key.key}` };
      keyIds[permissions] = key.id;
    }
  });

  afterAll(async () => {
    await worker.close();
    await api.close();
    for (const receiver of receivers) await receiver.close();
  });

  async function receiver(): Promise<Receiver & { url: string }> {
    const started = await Receiver.start();
    receivers.push(started);
    return started;
  }

  /** An endpoint registered by the `*` key, then given `permissions` as if a key holding them had registered it. */
  async function endpointRecording(permissions: string[], url = 'https://93.184.215.14/hooks'): Promise<{ id: string; secret: string }> {
    const created = (await api.http.post(base).set(keys['*']).send({ url }).expect(201)).body as { id: string; secret: string };
    await api.db.query(`UPDATE webhook_endpoints SET permissions = $2 WHERE id = $1`, [created.id, permissions]);
    return created;
  }

  /** A new document.updated event of the tenant's document. */
  async function documentEvent(): Promise<string> {
    const category = await new Fixtures(api.db, tenant.companyId).category({ name: `Servizi ${Math.random()}` });
    await api.http.patch(`/api/v1/companies/${tenant.companyId}/documents/${document.id}`).set(keys['*']).send({ category_id: category.id }).expect(200);
    const [event] = await api.db.query(`SELECT id FROM events WHERE payload->>'id' = $1 ORDER BY created_at DESC LIMIT 1`, [document.id]);
    return event.id as string;
  }

  it('registering an endpoint needs the read permission of what it receives; the endpoint records the key’s permissions', async () => {
    const matrix = [];
    for (const key of KEYS) {
      const response = await api.http.post(base).set(keys[key]).send({ url: 'https://93.184.215.14/register' });
      const want = expected(key);
      matrix.push({ key, ...outcome(response) });
      if (want.status === 0) expect(response.body.permissions).toEqual(normalizePermissions(key));
      else expect(response.body.errors[0].detail).toContain(`needs the permission ${want.required}`);
    }
    expect(matrix).toEqual(KEYS.map((key) => ({ key, ...(expected(key).status ? expected(key) : { status: 201, required: undefined }) })));
    // The refusal says why a webhooks key needs to read documents.
    const refused = await api.http.post(base).set(keys['webhooks:write']).send({ url: 'https://93.184.215.14/register' });
    expect(refused.body.errors).toEqual([
      {
        code: 'insufficient_permission',
        title: 'Insufficient permission',
        detail:
          'This call needs the permission documents:read, which this API key lacks (an endpoint receives the document.created, document.updated and document.deleted events, which carry documents in full); use a key with documents:read, documents:write or *.',
        required_permission: 'documents:read',
      },
    ]);
  });

  it('an event goes only to the endpoints whose recorded permissions read it; the others receive nothing', async () => {
    const recorded: Array<[string[], boolean]> = [
      [['*'], true],
      [['documents:read', 'webhooks:write'], true],
      [['documents:write'], true],
      [['webhooks:write'], false],
      [['flows:write', 'webhooks:write'], false],
      [['transactions:read', 'webhooks:write'], false],
      [[], false],
    ];
    const endpoints: Array<{ permissions: string[]; receives: boolean; target: Receiver; endpoint: { id: string; secret: string } }> = [];
    for (const [permissions, receives] of recorded) {
      const target = await receiver();
      const endpoint = await endpointRecording(permissions, target.url);
      target.secrets = [endpoint.secret];
      endpoints.push({ permissions, receives, target, endpoint });
    }
    const event = await documentEvent();
    await waitFor(
      () => endpoints.filter((e) => e.receives).every((e) => e.target.received.length === 1),
      'the deliveries to the endpoints that read documents',
    );
    // The fan-out writes every endpoint's delivery in one statement: the others' are decided by now.
    const rows: Array<{ endpoint_id: string }> = await api.db.query(`SELECT endpoint_id FROM deliveries WHERE event_id = $1`, [event]);
    const delivered = new Set(rows.map((r) => r.endpoint_id));
    expect(endpoints.map((e) => [e.permissions, delivered.has(e.endpoint.id), e.target.received.length])).toEqual(
      recorded.map(([permissions, receives]) => [permissions, receives, receives ? 1 : 0]),
    );
    for (const e of endpoints.filter((x) => x.receives)) expect(e.target.received[0].body).toMatchObject({ id: event, data: { id: document.id } });
  });

  it('replaying an event needs its read permission, in the key and in the endpoint', async () => {
    const event = await documentEvent();
    const endpoint = await endpointRecording(['*']);
    const matrix = [];
    for (const key of KEYS) matrix.push({ key, ...outcome(await api.http.post(`${base}/${endpoint.id}/replay`).set(keys[key]).send({ event_id: event })) });
    expect(matrix).toEqual(KEYS.map((key) => ({ key, ...(expected(key).status ? expected(key) : { status: 202, required: undefined }) })));

    const blind = await endpointRecording(['webhooks:write']);
    expectError(
      await api.http.post(`${base}/${blind.id}/replay`).set(keys['*']).send({ event_id: event }),
      409,
      'conflict',
      '/event_id',
      `Endpoint ${blind.id} does not receive document.updated events: the key that registered it, or last changed its URL, may not read them (documents:read). Change its URL with a key that may, then replay.`,
    );
    expect(await api.db.query(`SELECT 1 FROM deliveries WHERE endpoint_id = $1`, [blind.id])).toEqual([]);
    // An event the integrator may not see is not found, whatever the key.
    expectError(
      await api.http.post(`${base}/${endpoint.id}/replay`).set(keys['webhooks:write']).send({ event_id: '00000000-0000-4000-8000-000000000000' }),
      404,
      'not_found',
      '/event_id',
    );
  });

  it('rotating the secret and changing the URL need the read permission; the new URL takes the permissions of the key that sent it', async () => {
    const rotate = [];
    const move = [];
    for (const key of KEYS) {
      const endpoint = await endpointRecording(['*']);
      rotate.push({ key, ...outcome(await api.http.post(`${base}/${endpoint.id}/rotate-secret`).set(keys[key])) });
      const moved = await api.http.patch(`${base}/${endpoint.id}`).set(keys[key]).send({ url: 'https://93.184.215.14/moved' });
      move.push({ key, ...outcome(moved) });
      const [stored] = await api.db.query(`SELECT url, permissions FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
      expect([key, stored]).toEqual([
        key,
        moved.status === 200
          ? { url: 'https://93.184.215.14/moved', permissions: normalizePermissions(key) }
          : { url: 'https://93.184.215.14/hooks', permissions: ['*'] },
      ]);
    }
    expect(rotate).toEqual(KEYS.map((key) => ({ key, ...(expected(key).status ? expected(key) : { status: 200, required: undefined }) })));
    expect(move).toEqual(KEYS.map((key) => ({ key, ...(expected(key).status ? expected(key) : { status: 200, required: undefined }) })));

    // Describing, disabling and enabling send nothing anywhere new: webhooks:write is enough, and the permissions stay.
    const endpoint = await endpointRecording(['*']);
    const paused = await api.http.patch(`${base}/${endpoint.id}`).set(keys['webhooks:write']).send({ description: 'paused', enabled: false }).expect(200);
    expect(paused.body).toMatchObject({ description: 'paused', enabled: false, permissions: ['*'] });
    await api.http.patch(`${base}/${endpoint.id}`).set(keys['webhooks:write']).send({ enabled: true }).expect(200);
    await api.http.get(`${base}/${endpoint.id}/deliveries`).set(keys['webhooks:read']).expect(200);
  });

  it('an endpoint names the key that chose its URL, and revoking that key at the CLI lists it', async () => {
    const key = 'documents:write,webhooks:write';
    const chosen = (await api.http.post(base).set(keys[key]).send({ url: 'https://93.184.215.14/chosen' }).expect(201)).body;
    const moved = await endpointRecording(['*']);
    await api.http.patch(`${base}/${moved.id}`).set(keys[key]).send({ url: 'https://93.184.215.14/moved-by-key' }).expect(200);
    const stored = await api.db.query(`SELECT id, api_key_id FROM webhook_endpoints WHERE id = ANY($1::uuid[]) ORDER BY created_at`, [[chosen.id, moved.id]]);
    expect(stored).toEqual([
      { id: chosen.id, api_key_id: keyIds[key] },
      { id: moved.id, api_key_id: keyIds[key] },
    ]);

    const out: string[] = [];
    const code = await runCli(
      ['key:revoke', keyIds[key]],
      { ...process.env, DATABASE_URL: api.config.databaseUrl, FLUSSO_ENV: 'development' },
      {
        out: (line) => out.push(line),
        err: (line) => out.push(line),
      },
    );
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('Webhook endpoints this key registered or last pointed somewhere keep receiving events');
    expect(text).toContain(`${chosen.id}  https://93.184.215.14/chosen  [development]`);
    expect(text).toContain(`${moved.id}  https://93.184.215.14/moved-by-key  [development]`);
  });

  it('the sender refuses, for good, a queued delivery its endpoint may no longer read', async () => {
    const target = await receiver();
    const endpoint = await endpointRecording(['webhooks:write'], target.url);
    target.secrets = [endpoint.secret];
    const event = await documentEvent();
    // A delivery queued before the endpoint's permissions were recorded.
    const [{ id }] = await api.db.query(
      `INSERT INTO deliveries (channel, endpoint_id, event_id, ordering_key, ordering_at) VALUES ('webhook', $1, $2, $3, now()) RETURNING id`,
      [endpoint.id, event, document.id],
    );
    await api.db.query('SELECT pg_notify($1, $2)', [WORK_CHANNELS.deliveries, '']);
    await waitFor(async () => (await api.db.query(`SELECT status FROM deliveries WHERE id = $1`, [id]))[0].status !== 'pending', 'the delivery to be settled');
    const [attempt] = await api.db.query(`SELECT d.status, a.error FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id WHERE d.id = $1`, [id]);
    expect(attempt).toEqual({ status: 'failed', error: "refused: the endpoint's permissions do not include documents:read, which document.updated needs" });
    expect(target.received).toEqual([]);
  });
});

describe('migration: webhook endpoint permissions', () => {
  it('gives an existing endpoint what its integrator’s keys in its environment held together, * when it had none', async () => {
    const { db, drop } = await databaseBefore(WebhookEndpointPermissions1795454600000);
    try {
      const integrator = async (name: string, keys: Array<[string, string[], boolean]>) => {
        const [{ id }] = await db.query(`INSERT INTO integrators (name) VALUES ($1) RETURNING id`, [name]);
        for (const [environment, permissions, revoked] of keys) {
          await db.query(
            `INSERT INTO api_keys (integrator_id, environment, name, lookup, secret_hash, permissions, revoked_at)
             VALUES ($1, $2, 'k', $3, 'x', $4, CASE WHEN $5 THEN now() END)`,
            [id, environment, `fls_${Math.random().toString(36).slice(2, 12)}`, permissions, revoked],
          );
        }
        const endpoint = async (environment: string) =>
          (
            await db.query(
              `INSERT INTO webhook_endpoints (integrator_id, environment, url, secret) VALUES ($1, $2, 'https://93.184.215.14/', 'x') RETURNING id`,
              [id, environment],
            )
          )[0].id as string;
        return { development: await endpoint('development'), production: await endpoint('production') };
      };
      const restricted = await integrator('Solo webhook', [
        ['development', ['webhooks:write'], false],
        ['development', ['flows:write', 'documents:read'], true],
        ['production', ['webhooks:write', 'documents:write'], false],
        ['production', ['documents:read', 'payments:read'], false],
      ]);
      const full = await integrator('Tutto', [['development', ['*'], false]]);
      const keyless = await integrator('Operatore', []);
      await db.runMigrations({ transaction: 'each' });
      const permissions = async (id: string) => (await db.query(`SELECT permissions FROM webhook_endpoints WHERE id = $1`, [id]))[0].permissions;
      expect([
        await permissions(restricted.development),
        await permissions(restricted.production),
        await permissions(full.development),
        await permissions(full.production),
        await permissions(keyless.development),
      ]).toEqual([['documents:read', 'flows:write', 'webhooks:write'], ['documents:write', 'payments:read', 'webhooks:write'], ['*'], ['*'], ['*']]);
      await expect(
        db.query(
          `INSERT INTO webhook_endpoints (integrator_id, environment, url, secret) SELECT integrator_id, environment, url, secret FROM webhook_endpoints LIMIT 1`,
        ),
      ).rejects.toThrow(/null value in column "permissions"/);
    } finally {
      await drop();
    }
  });
});
