import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { Fixtures } from '../../test/fixtures.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { buildOpenApiDocument, permissionSentence } from '../openapi/openapi.js';
import { PUBLIC_ROUTE } from './auth/auth-context.js';
import { ALL_PERMISSIONS, allows, ANY_KEY, normalizePermissions, PERMISSION_FAMILIES, PermissionsError, REQUIRED_PERMISSION } from './auth/permissions.js';
import { ERROR_CODES } from './errors/error-codes.js';
import { databaseBefore } from '../../test/database.js';
import { KeyPermissions1795437500000 } from '../../../migrations/1795437500000-key-permissions.js';

/** Asserts a 403 insufficient_permission that names the permission the call needs. */
function expectInsufficient(response: Response, permission: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 403,
    body: {
      errors: [
        {
          code: 'insufficient_permission',
          title: ERROR_CODES.insufficient_permission.title,
          detail: expect.stringContaining(`needs the permission ${permission},`),
          required_permission: permission,
        },
      ],
      meta: { request_id: expect.any(String) },
    },
  });
}

describe('permissions: the rules', () => {
  it('stores known permissions once, in a fixed order, * alone, read dropped where write is held', () => {
    expect(normalizePermissions(' documents:read , reconciliations:write')).toEqual(['documents:read', 'reconciliations:write']);
    expect(normalizePermissions(['reconciliations:write', 'documents:read', 'documents:read'])).toEqual(['documents:read', 'reconciliations:write']);
    expect(normalizePermissions('documents:read,documents:write,flows:read')).toEqual(['documents:write', 'flows:read']);
    expect(normalizePermissions('documents:read,*')).toEqual(['*']);
  });

  it('refuses unknown or missing permissions, naming them', () => {
    expect(() => normalizePermissions('documents:delete,accounts:write')).toThrow(
      new PermissionsError(`Unknown permissions "documents:delete", "accounts:write"; use ${ALL_PERMISSIONS.join(', ')}.`),
    );
    expect(() => normalizePermissions(' , ')).toThrow(PermissionsError);
    expect(() => normalizePermissions([])).toThrow(PermissionsError);
  });

  it('the Authentication page lists every permission', () => {
    const page = readFileSync(join(process.cwd(), 'portal/app/content/authentication.md'), 'utf8');
    const table = page.slice(page.indexOf('## Permissions'), page.indexOf('## 401 or 403?'));
    for (const permission of ALL_PERMISSIONS) expect([permission, table.includes(`\`${permission}\``)]).toEqual([permission, true]);
  });

  it("README's key:create names exactly the families the CLI takes, each with its access", () => {
    const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('| `key:create'))!;
    const listed = line.slice(line.indexOf('(write implies read) for'), line.indexOf(', e.g.'));
    const families = [...listed.matchAll(/`([a-z0-9_:]+)`( \(read only\))?/g)].map(([, family, readOnly]) => `${family}:${readOnly ? 'read' : 'write'}`);
    const expected = Object.entries(PERMISSION_FAMILIES).map(([family, access]) => `${family}:${access.at(-1)}`);
    expect(families.sort()).toEqual(expected.sort());
  });

  it('write implies read, * implies everything, nothing else implies anything', () => {
    expect(allows(new Set(['documents:write']), 'documents:read')).toBe(true);
    expect(allows(new Set(['documents:write']), 'documents:write')).toBe(true);
    expect(allows(new Set(['documents:read']), 'documents:write')).toBe(false);
    expect(allows(new Set(['documents:write']), 'flows:read')).toBe(false);
    expect(allows(new Set(['*']), 'webhooks:write')).toBe(true);
    expect(allows(new Set(['documents:write']), '*')).toBe(false);
  });
});

describe('permissions: restricted keys over HTTP', () => {
  let api: TestApi;
  let rossi: Tenant;
  let base: string;
  let documentId: string;
  const keys: Record<string, { Authorization: string }> = {};

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api);
    base = `/api/v1/companies/${rossi.companyId}`;
    documentId = (await new Fixtures(api.db, rossi.companyId).document()).id;
    for (const permissions of [
      'documents:read',
      'documents:write',
      'counterparts:read',
      'reconciliations:write,documents:read',
      'documents:write,products:read',
    ]) {
      const key = await api.integrators.createKey(rossi.integratorId, 'development', permissions, permissions);
      keys[permissions] = { Authorization: `Bearer ${key.key}` };
    }
  });

  afterAll(() => api.close());

  it('a read key reads its family and nothing else; writing is 403 naming the write permission', async () => {
    const key = keys['documents:read'];
    await api.http.get(`${base}/documents`).set(key).expect(200);
    await api.http.get(`${base}/documents/${documentId}`).set(key).expect(200);
    expectInsufficient(await api.http.patch(`${base}/documents/${documentId}`).set(key).send({ category_id: null }), 'documents:write');
    expectInsufficient(await api.http.get(`${base}/transactions`).set(key), 'transactions:read');
    expectInsufficient(await api.http.get(`${base}/documents/${documentId}/flows`).set(key), 'flows:read');
    // The company list is every key's (spec section 8: no 403 there).
    await api.http.get('/api/v1/companies').set(key).expect(200);
    expectInsufficient(await api.http.get('/api/v1/webhook-endpoints').set(key), 'webhooks:read');
  });

  it('a write key also reads its family (write implies read)', async () => {
    const key = keys['documents:write'];
    await api.http.get(`${base}/documents/${documentId}`).set(key).expect(200);
    await api.http.patch(`${base}/documents/${documentId}`).set(key).send({ category_id: null }).expect(200);
    expectInsufficient(await api.http.get(`${base}/categories`).set(key), 'categories:read');
  });

  it('the permission is checked before the body, and on routes outside companies too', async () => {
    // A key that may not write learns nothing about what a valid body would be.
    expectInsufficient(await api.http.post(`${base}/reconciliations`).set(keys['documents:read']).send({}), 'reconciliations:write');
    await api.http.post(`${base}/reconciliations`).set(keys['reconciliations:write,documents:read']).send({}).expect(400);
    // Found or not in the registry, but past the permission check.
    expect((await api.http.get('/api/v1/counterparts/search?vat_number=IT01234567890').set(keys['counterparts:read'])).body.errors?.[0]?.code).not.toBe(
      'insufficient_permission',
    );
    expectInsufficient(await api.http.get('/api/v1/counterparts/search?vat_number=IT01234567890').set(keys['documents:read']), 'counterparts:read');
    await api.http.get('/api/v1/companies').set(keys['counterparts:read']).expect(200);
  });

  it("an invoice line that names a product needs products:read too: the product's values are read into the invoice", async () => {
    const product = (
      await api.http
        .post(`${base}/products`)
        .set(rossi.auth)
        .send({ code: 'CONS-1', description: 'Consulenza', unit_price: { amount: '100', currency: 'EUR' }, vat_percentage: '22' })
        .expect(201)
    ).body.id as string;
    const invoice = exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'P-1' }) as unknown as {
      fattura_elettronica_body: Array<{ dati_beni_servizi: { dettaglio_linee: Array<Record<string, unknown>> } }>;
    };
    const line = invoice.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee[0];
    line.product_id = product;
    const create = (key: { Authorization: string }) => api.http.post(`${base}/documents/invoice`).set(key).send(invoice);
    expectInsufficient(await create(keys['documents:write']), 'products:read');
    await create(keys['documents:write,products:read']).expect(201);
    // Without a product, documents:write is enough.
    await api.http
      .post(`${base}/documents/invoice`)
      .set(keys['documents:write'])
      .send(exampleInvoice({ sellerVat: rossi.vatNumber.slice(2), number: 'P-2' }))
      .expect(201);
  });

  it('every route of the API declares the one permission it needs', () => {
    const undeclared: string[] = [];
    const declared = new Map<string, string>();
    for (const module of api.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as { prototype: object; name: string } | null;
        if (!controller) continue;
        const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string;
        for (const name of Object.getOwnPropertyNames(controller.prototype)) {
          const handler = (controller.prototype as Record<string, unknown>)[name];
          if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
          const route = `${controller.name}.${name} (${[prefix, Reflect.getMetadata(PATH_METADATA, handler)].filter((p) => p && p !== '/').join('/')})`;
          const permission = Reflect.getMetadata(REQUIRED_PERMISSION, handler) as string | undefined;
          if (permission) declared.set(route, permission);
          else if (!Reflect.getMetadata(PUBLIC_ROUTE, handler) && !Reflect.getMetadata(PUBLIC_ROUTE, controller)) undeclared.push(route);
        }
      }
    }
    expect(undeclared).toEqual([]);
    // The walk does find the routes (so the check above cannot pass by finding none).
    expect(declared.get('DocumentsController.update (companies/:company_id/documents/:id)')).toBe('documents:write');
    expect(declared.get('CompaniesController.list (companies)')).toBe(ANY_KEY);
    expect(declared.size).toBeGreaterThanOrEqual(38);
    for (const permission of declared.values()) expect([...ALL_PERMISSIONS, ANY_KEY]).toContain(permission);
  });

  it('the OpenAPI document shows each operation’s permission, as x-permission and in its description', () => {
    const document = buildOpenApiDocument(api.app);
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string; description?: string; 'x-permission'?: string }>),
    );
    expect(operations.length).toBeGreaterThanOrEqual(38);
    for (const operation of operations) {
      // The signed link to an invoice's XML takes no key, so no permission; the company list is every key's, and so are
      // the events, each listed only to a key that may read its type.
      if (['getInvoiceFile', 'listCompanies', 'listEvents', 'listAllEvents', 'getEvent'].includes(operation.operationId)) continue;
      expect([operation.operationId, ALL_PERMISSIONS.includes(operation['x-permission'] as never)]).toEqual([operation.operationId, true]);
      expect(operation.description).toContain(permissionSentence(operation['x-permission'] as string));
    }
    const update = operations.find((o) => o.operationId === 'updateDocument');
    expect(update?.['x-permission']).toBe('documents:write');
    expect(permissionSentence('documents:read')).toBe(
      'Needs the `documents:read` permission (`documents:write` and `*` include it); a key without it is answered 403 `insufficient_permission`.',
    );
  });
});

describe('migration: key permissions', () => {
  it('gives the keys made before it *, and new rows must name their permissions', async () => {
    const { db, drop } = await databaseBefore(KeyPermissions1795437500000);
    try {
      const [{ id: integrator }] = await db.query(`INSERT INTO integrators (name) VALUES ('Gestionale Rossi') RETURNING id`);
      const insertKey = (lookup: string) =>
        db.query(`INSERT INTO api_keys (integrator_id, environment, name, lookup, secret_hash) VALUES ($1, 'development', 'old', $2, 'x') RETURNING id`, [
          integrator,
          lookup,
        ]);
      const [{ id: old }] = await insertKey('fls_dev_AAAAAAAA');
      await db.runMigrations({ transaction: 'each' });
      expect(await db.query('SELECT permissions FROM api_keys WHERE id = $1', [old])).toEqual([{ permissions: ['*'] }]);
      await expect(insertKey('fls_dev_BBBBBBBB')).rejects.toThrow(/null value in column "permissions"/);
    } finally {
      await drop();
    }
  });
});
