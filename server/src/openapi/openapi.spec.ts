import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createApi } from '../app.js';
import { loadConfig } from '../config/config.js';
import { generateOpenApiJson, OPENAPI_FILE } from '../openapi-file.js';

describe('the OpenAPI document the portal reads', () => {
  it('is the one the code generates (run `npm run openapi` after changing the API)', async () => {
    const generated = await generateOpenApiJson();
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(generated);
  });

  it('validates as OpenAPI 3.1 and reports version 1.2.0 with the bearer scheme', async () => {
    const document = JSON.parse(await generateOpenApiJson());
    await SwaggerParser.validate(structuredClone(document));
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.2.0');
    expect(document.components.securitySchemes.authorization).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(document.servers.map((s: { url: string }) => s.url)).toEqual(['https://api.sandbox.flusso.example/api/v1', 'https://api.flusso.example/api/v1']);
  });

  it('serves at /api/v1/openapi.json the hosts the portal shows (FLUSSO_HOST_*) as its servers; the file keeps the defaults', async () => {
    const hosts = { FLUSSO_HOST_DEVELOPMENT: 'http://localhost:3000/', FLUSSO_HOST_PRODUCTION: 'https://api.example.test' };
    const app = await createApi(loadConfig({ ...process.env, LOG_LEVEL: 'silent', ...hosts }), { preview: true });
    try {
      await app.getHttpAdapter().getInstance().ready();
      const response = await request(app.getHttpServer()).get('/api/v1/openapi.json').expect(200);
      expect(response.body.servers).toEqual([
        { url: 'http://localhost:3000/api/v1', description: 'Development (sandbox)' },
        { url: 'https://api.example.test/api/v1', description: 'Production' },
      ]);
    } finally {
      await app.close();
    }
    expect(() => loadConfig({ FLUSSO_HOST_DEVELOPMENT: 'api.example.test' })).toThrow(
      'FLUSSO_HOST_DEVELOPMENT must be an http:// or https:// URL such as https://api.sandbox.flusso.example',
    );
    expect(loadConfig({ FLUSSO_HOST_DEVELOPMENT: '', FLUSSO_HOST_PRODUCTION: 'https://api.example.test//' }).publicHosts).toEqual({
      development: 'https://api.sandbox.flusso.example',
      production: 'https://api.example.test',
    });
    Object.assign(process.env, hosts);
    try {
      expect(JSON.parse(await generateOpenApiJson()).servers.map((s: { url: string }) => s.url)).toEqual([
        'https://api.sandbox.flusso.example/api/v1',
        'https://api.flusso.example/api/v1',
      ]);
    } finally {
      delete process.env.FLUSSO_HOST_DEVELOPMENT;
      delete process.env.FLUSSO_HOST_PRODUCTION;
    }
  });

  it('says null the JSON Schema way: null among the types and in nullable enums, anyOf null beside a reference', async () => {
    const text = await generateOpenApiJson();
    const document = JSON.parse(text);
    expect(text).not.toMatch(/"nullable"|"x-webhooks"/);
    const schemas = document.components.schemas;
    expect(schemas.Document.properties.counterpart).toEqual({
      description: expect.any(String),
      anyOf: [{ $ref: '#/components/schemas/Counterpart' }, { type: 'null' }],
    });
    expect(schemas.Account.properties.current_balance.anyOf).toEqual([{ $ref: '#/components/schemas/Money' }, { type: 'null' }]);
    expect(schemas.Flow.properties.payment_method).toMatchObject({ type: ['string', 'null'], enum: expect.arrayContaining(['TRANSFER', null]) });
    expect(schemas.FlowUpdatePayload.properties.payment_method.enum).toContain(null);
    expect(schemas.Document.properties.delivery_date.type).toEqual(['string', 'null']);
    expect(Object.keys(document.webhooks)).toEqual([
      'documentCreated',
      'documentUpdated',
      'documentDeleted',
      'transactionCreated',
      'reconciliationCreated',
      'reconciliationDeleted',
      'f24Processed',
      'f24Failed',
      'webhookTest',
    ]);
  });

  it('says what a request may hold as the API checks it: no undeclared body member, a member in every PATCH, no undeclared query parameter', async () => {
    const document = JSON.parse(await generateOpenApiJson());
    const schemas = document.components.schemas;
    for (const name of ['ReconciliationCreatePayload', 'FlowUpdatePayload', 'InvoiceShareCreatePayload', 'BulkPaymentCreatePayload', 'BulkPaymentRow', 'Money'])
      expect([name, schemas[name].additionalProperties]).toEqual([name, false]);
    for (const name of ['DocumentUpdatePayload', 'FlowUpdatePayload', 'TransactionUpdatePayload', 'CounterpartUpdatePayload', 'WebhookEndpointUpdatePayload'])
      expect([name, schemas[name].minProperties]).toEqual([name, 1]);
    expect(schemas.CategoryUpdatePayload.minProperties).toBeUndefined();
    for (const item of Object.values(document.paths) as Array<
      Record<string, { parameters?: Array<{ in?: string }>; responses: Record<string, { description: string }> }>
    >) {
      for (const operation of Object.values(item)) {
        if ((operation.parameters ?? []).some((parameter) => parameter.in === 'query')) continue;
        expect(operation.responses['400'].description).toContain('`invalid_query_parameter`');
      }
    }
  });

  it('gives no member of a request body a default, which openapi-typescript 7 would type as required, and says it in words', async () => {
    const document = JSON.parse(await generateOpenApiJson());
    const withDefault: string[] = [];
    const seen = new Set<object>();
    const walk = (schema: Record<string, unknown> | undefined, at: string): void => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      if (typeof schema.$ref === 'string')
        return walk(document.components.schemas[schema.$ref.split('/').pop() as string], schema.$ref.split('/').pop() as string);
      for (const [name, member] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if ('default' in member) withDefault.push(`${at}.${name}`);
        walk(member, `${at}.${name}`);
      }
      for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'])
        for (const [i, part] of ((schema[key] ?? []) as Array<Record<string, unknown>>).entries()) walk(part, `${at}/${key}/${i}`);
      for (const key of ['items', 'additionalProperties']) walk(schema[key] as Record<string, unknown> | undefined, `${at}/${key}`);
    };
    for (const item of Object.values(document.paths) as Array<Record<string, { operationId?: string; requestBody?: { content: object } }>>)
      for (const operation of Object.values(item))
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) walk(media.schema, `${operation.operationId} ${type}`);
    expect(seen.size).toBeGreaterThan(100);
    expect(withDefault).toEqual([]);
    const created = document.components.schemas.WebhookEndpointCreatePayload;
    expect(created.required).toEqual(['url']);
    expect(created.properties.enabled.description).toMatch(/ Default: `true`\.$/);
  });

  it('refuses in its parameter schemas the values the API refuses: blank filters, empty sort or expand, a non-ASCII reference', async () => {
    const document = JSON.parse(await generateOpenApiJson());
    const ajv = new Ajv2020({ strict: false });
    const valid = (path: string, method: string, name: string, value: unknown): boolean => {
      const parameter = document.paths[path][method].parameters.find((p: { name?: string }) => p.name === name);
      return ajv.validate(parameter.schema, value);
    };
    const categories = '/companies/{company_id}/categories';
    expect([valid(categories, 'get', 'filter[name]', ''), valid(categories, 'get', 'filter[name]', ' ')]).toEqual([false, true]);
    expect([valid(categories, 'get', 'filter[name__in]', ['a', ' ']), valid(categories, 'get', 'filter[name__in]', ['a', ' b'])]).toEqual([false, true]);
    expect([valid(categories, 'get', 'sort', []), valid('/companies/{company_id}/documents', 'get', 'expand', [])]).toEqual([false, false]);
    const invoice = (value: string) => valid('/companies/{company_id}/documents/invoice', 'post', 'reconciliation_identifier', value);
    expect([invoice('RIF 42'), invoice('RIF-😀'), invoice(' RIF')]).toEqual([true, false, false]);
    expect(valid('/counterparts/search', 'get', 'vat_number', '')).toBe(false);
  });

  it('declares the headers every answer carries: the request id, the rate limit once the key is counted, retry-after', async () => {
    const document = JSON.parse(await generateOpenApiJson());
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const item of Object.values(document.paths) as Array<Record<string, { security?: unknown[]; responses: Record<string, { headers?: object }> }>>) {
      for (const operation of Object.values(item)) {
        const authenticated = (operation.security ?? document.security).length > 0;
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(response.headers).toMatchObject({ 'x-request-id': ref('RequestId') });
          if (authenticated && (status.startsWith('2') || status === '429'))
            expect(response.headers).toMatchObject({ 'x-ratelimit-limit': ref('RateLimitLimit'), 'x-ratelimit-remaining': ref('RateLimitRemaining') });
          if (status === '429' || status === '503') expect(response.headers).toMatchObject({ 'retry-after': ref('RetryAfter') });
        }
      }
    }
    // The signed link to an invoice's XML takes no key: nothing is counted.
    expect(Object.keys(document.paths['/invoice-files/{document_id}'].get.responses['200'].headers)).toEqual(['x-request-id']);
  });

  it('describes an XML request body as XML text, not as the JSON body it mirrors, each example under its own type', async () => {
    const document = JSON.parse(await generateOpenApiJson());
    const content = document.paths['/companies/{company_id}/documents/invoice'].post.requestBody.content;
    expect(content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EInvoice' });
    expect(content['application/xml'].schema).toEqual({
      type: 'string',
      contentMediaType: 'application/xml',
      description: expect.stringContaining('`EInvoice`'),
    });
    expect(content['application/xml'].examples.xml.value).toMatch(/^<\?xml /);
    expect(Object.keys(content['application/json'].examples)).toEqual(['json', 'json_simplified']);
    expect(Object.keys(content['application/xml'].examples)).toEqual(['xml', 'xml_simplified']);
  });
});
