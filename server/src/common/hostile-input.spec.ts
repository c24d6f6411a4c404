import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { OPENAPI_FILE } from '../openapi-file.js';
import { BASE_PATH } from '../config/api-version.js';
import { toSepaText } from '../payments/sepa/charset.js';
import { ERROR_CODES } from './errors/error-codes.js';
import { MAX_BODY_DEPTH } from './validation/json-body.js';

/** Every name a plain object inherits, plus `prototype`: the words that found the field tables' prototype. */
const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

/**
 * Hostile input never reaches a 500: prototype names wherever a client's word selects something (sort, filter,
 * expand, query parameter names, body members), bodies nested past the depth limit, and requests Node's HTTP parser
 * refuses before Fastify or Nest see them.
 */
describe('hostile input', () => {
  let api: TestApi;
  let rossi: Tenant;
  let company: string;
  let documentId: string;
  let flowId: string;
  let accountId: string;
  let transactionId: string;

  beforeAll(async () => {
    // A short request time-out, so that a stalled request's 408 comes within the raw client's patience.
    api = await startApi({ RATE_LIMIT_POINTS: '1000000', REQUEST_TIMEOUT_MS: '1500' });
    rossi = await createTenant(api);
    const fixtures = new Fixtures(api.db, rossi.companyId);
    // More rows than a page, so an ignored sort would not go unnoticed.
    const documents = await Promise.all(Array.from({ length: 3 }, (_, i) => fixtures.document({ number: `FV-${i}` })));
    documentId = documents[0].id;
    flowId = (await fixtures.flow(documents[0])).id;
    const account = await fixtures.account({ iban: 'IT60X0542811101000000123456' });
    accountId = account.id;
    transactionId = (await fixtures.transaction(account)).id;
    await fixtures.counterpart();
    await fixtures.category();
    company = `/api/v1/companies/${rossi.companyId}`;
  });

  afterAll(() => api.close());

  const lists = () => [
    '/api/v1/companies',
    `${company}/accounts`,
    `${company}/categories`,
    `${company}/counterparts`,
    `${company}/documents`,
    `${company}/documents/${documentId}/flows`,
    `${company}/reconciliations`,
    `${company}/transactions`,
    `${company}/payment-batches`,
  ];
  const reads = () => [`${company}/documents/${documentId}`, `${company}/documents/${documentId}/flows/${flowId}`];

  /** The query string written out by hand: a client library may drop a `__proto__` parameter. */
  const get = (path: string, parameter: string, value: string) =>
    api.http.get(`${path}?${encodeURIComponent(parameter)}=${encodeURIComponent(value)}`).set(rossi.auth);

  function expectInvalidQuery(response: Response, parameter: string, where: string): void {
    const seen = `${where} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
    expect([seen, response.status, response.body.errors?.[0]?.code]).toEqual([seen, 400, 'invalid_query_parameter']);
    expect([seen, response.body.errors[0].source]).toEqual([seen, { pointer: `/query/${parameter}` }]);
  }

  it('refuses every prototype name in sort, filter[…] and expand of every list, and as a parameter name', async () => {
    for (const path of lists()) {
      for (const name of PROTOTYPE_NAMES) {
        const cases: Array<[string, string]> = [
          ['sort', name],
          ['sort', `-${name}`],
          ['expand', name],
          [`filter[${name}]`, 'x'],
          [`filter[${name}__in]`, 'a,b'],
          [`filter[${name}__eq]`, 'x'],
          [name, 'x'],
        ];
        for (const [parameter, value] of cases) {
          const response = await get(path, parameter, value);
          expectInvalidQuery(response, parameter, `GET ${path}?${parameter}=${value}`);
        }
      }
    }
    // Some thousand requests one after the other: a minute is not enough when the machine runs several suites.
  }, 240_000);

  it('refuses every prototype name in expand and as a parameter name of single reads', async () => {
    for (const path of reads()) {
      for (const name of PROTOTYPE_NAMES) {
        for (const [parameter, value] of [
          ['expand', name],
          [name, 'x'],
        ]) {
          const response = await get(path, parameter, value);
          expectInvalidQuery(response, parameter, `GET ${path}?${parameter}=${value}`);
        }
      }
    }
  });

  it('refuses every prototype name as a body member, at the top and nested, with a pointer to it', async () => {
    const flowPath = `${company}/documents/${documentId}/flows/${flowId}`;
    // Each body is valid but for the hostile member; `%s` marks where it goes. Written by hand, because `__proto__` in
    // an object literal would set the prototype instead of adding a member.
    const writes: Array<[string, 'post' | 'patch', string, string]> = [
      [`${company}/reconciliations`, 'post', `{%s:"x","flow_id":"${flowId}","transaction_id":"${flowId}"}`, ''],
      [`${company}/documents/${documentId}`, 'patch', '{%s:{"x":1},"category_id":null}', ''],
      [flowPath, 'patch', '{"payment_method":"CASH",%s:1}', ''],
      [flowPath, 'patch', '{"amount":{"amount":"1.00",%s:{"x":1},"currency":"EUR"}}', '/amount'],
      [
        `${company}/requests/bulk-payment`,
        'post',
        `{"account_id":"${accountId}","payments":[{"payee_name":"A","iban":"IT60X0542811101000000123456",%s:1,"amount":{"amount":"1.00","currency":"EUR"}}]}`,
        '/payments/0',
      ],
    ];
    for (const [path, method, template, parent] of writes) {
      for (const name of PROTOTYPE_NAMES) {
        const body = template.replace('%s', JSON.stringify(name));
        const response = await api.http[method](path).set(rossi.auth).set('content-type', 'application/json').send(body);
        const seen = `${method} ${path} ${body} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
        expect([seen, response.status, response.body.errors]).toEqual([
          seen,
          400,
          [
            {
              code: 'bad_request',
              title: 'Bad request',
              detail: `The member ${name} is not allowed in this request.`,
              source: { pointer: `${parent}/${name}` },
            },
          ],
        ]);
      }
    }
    const flow = await api.http.get(flowPath).set(rossi.auth).expect(200);
    expect(flow.body).toMatchObject({ payment_method: 'TRANSFER', amount: { amount: '1220.00', currency: 'EUR' } });
  });

  it('refuses a NUL character in every text member it would store, with 422 and a pointer, never a 500', async () => {
    // PostgreSQL text and jsonb cannot hold U+0000: sent on, the write fails in the database instead of answering.
    const nul = 'A\u0000B';
    const writes: Array<[string, 'post' | 'patch', Record<string, unknown>, string]> = [
      [`${company}/counterparts`, 'post', { company_name: nul, country: 'IT' }, '/company_name'],
      [`${company}/counterparts`, 'post', { company_name: 'Verdi S.r.l.', address: nul, country: 'IT' }, '/address'],
      [`${company}/categories`, 'post', { name: nul }, '/name'],
      [
        `${company}/products`,
        'post',
        { code: 'P1', description: nul, unit_price: { amount: '1.00', currency: 'EUR' }, vat_percentage: '22.00' },
        '/description',
      ],
      [`${company}/sectionals`, 'post', { year: 2026, prefix: nul, minimum_digits: 3 }, '/prefix'],
      ['/api/v1/webhook-endpoints', 'post', { url: 'http://127.0.0.1:9/hook', description: nul }, '/description'],
      ['/api/v1/webhook-endpoints', 'post', { url: `http://127.0.0.1:9/${nul}` }, '/url'],
    ];
    for (const [path, method, body, pointer] of writes) {
      const response = await api.http[method](path).set(rossi.auth).send(body);
      const seen = `${method} ${path} ${JSON.stringify(body)} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
      expect([seen, response.status, response.body.errors?.[0]?.source?.pointer]).toEqual([seen, 422, pointer]);
    }
  });

  describe('text in, text out', () => {
    const counterparts = () => `${company}/counterparts`;
    const share = () => `${company}/documents/${documentId}/share-invoice`;
    /** Raw bytes as a JSON body, with the Content-Type given. */
    const postBytes = (path: string, bytes: Buffer, contentType = 'application/json') =>
      // superagent would write a Buffer as JSON ({"type":"Buffer",…}) under a JSON type: sent as the bytes themselves.
      api.http
        .post(path)
        .set(rossi.auth)
        .set('content-type', contentType)
        .serialize((data: Buffer) => data as unknown as string)
        .send(bytes);
    const latin1 = (text: string) => Buffer.from(text, 'latin1');

    it('refuses a lone surrogate in any text member with 422 and its pointer, and stores a well-formed one as sent', async () => {
      const lone = ['\\uD800', '\\uDFFF', 'Ros\\uD83Dsi', '\\uDE00 S.r.l.', 'a\\uDC00\\uD800b'];
      for (const text of lone) {
        const body = `{"company_name":"${text}","country":"IT"}`;
        expectError(
          await api.http.post(counterparts()).set(rossi.auth).set('content-type', 'application/json').send(body),
          422,
          'unprocessable_entity',
          '/company_name',
          /lone surrogate/,
        );
      }
      const flowPath = `${company}/documents/${documentId}/flows/${flowId}`;
      const nested = await api.http
        .patch(flowPath)
        .set(rossi.auth)
        .set('content-type', 'application/json')
        .send('{"amount":{"amount":"1.00","currency":"E\\uD800"}}');
      expectError(nested, 422, 'unprocessable_entity', '/amount/currency', /lone surrogate/);
      // Member names are text too.
      const key = await api.http
        .post(counterparts())
        .set(rossi.auth)
        .set('content-type', 'application/json')
        .send('{"company_name":"A","country":"IT","x\\uD800":1}');
      expectError(key, 422, 'unprocessable_entity', '/x\uD800', /A member name must be well-formed/);
      // A pair, decomposed accents, bidi and zero-width characters are text: kept exactly.
      const name = 'Ame\u0301lie 🙂 \u202eRossi\u200b S.r.l.\t';
      const created = await api.http.post(counterparts()).set(rossi.auth).send({ company_name: name, country: 'IT' }).expect(201);
      expect(created.body.company_name).toBe(name);
      const read = await api.http.get(`${counterparts()}/${created.body.id}`).set(rossi.auth).expect(200);
      expect(read.body.company_name).toBe(name);
    });

    it('refuses bytes that are not UTF-8 with 422 and the pointer of the member that holds them, storing nothing', async () => {
      const before = (await api.http.get(counterparts()).set(rossi.auth).expect(200)).body.data.length;
      const cases: Array<[Buffer, string]> = [
        [latin1('{"company_name":"Caff\xe8","country":"IT"}'), '/company_name'],
        [Buffer.concat([latin1('{"company_name":"A","country":"IT","address":"Via '), Buffer.from([0xed, 0xa0, 0x80]), latin1('"}')]), '/address'],
        [Buffer.concat([latin1('{"company_name":"A","country":"IT","city":"'), Buffer.from([0xf0, 0x9f, 0x99]), latin1('"}')]), '/city'],
        [Buffer.concat([latin1('{"company_name":"A","country":"IT","city":"'), Buffer.from([0xc0, 0xaf]), latin1('"}')]), '/city'],
      ];
      for (const [bytes, pointer] of cases) {
        expectError(await postBytes(counterparts(), bytes), 422, 'unprocessable_entity', pointer, /not UTF-8/);
        expectError(await postBytes(counterparts(), bytes, 'application/json; charset=utf-8'), 422, 'unprocessable_entity', pointer);
      }
      // Outside a string, such a byte is not JSON.
      expectError(await postBytes(counterparts(), latin1('{"company_name":"A","country":"IT"}\xff')), 400, 'bad_request', undefined, /not valid JSON/);
      expect((await api.http.get(counterparts()).set(rossi.auth).expect(200)).body.data.length).toBe(before);
    });

    it('reads a body in the charset it declares (ISO-8859-1, windows-1252), and refuses any other with 415', async () => {
      for (const [contentType, bytes, name] of [
        ['application/json; charset=iso-8859-1', latin1('{"company_name":"Caff\xe8 Citt\xe0","country":"IT"}'), 'Caffè Città'],
        ['application/json; charset="ISO-8859-1"', latin1('{"company_name":"\xc9lite","country":"IT"}'), 'Élite'],
        ['application/json;charset=windows-1252', latin1('{"company_name":"Euro \x80 \x93q\x94","country":"IT"}'), 'Euro € “q”'],
        ['application/json; charset=latin1', latin1('{"company_name":"Na\xefve","country":"IT"}'), 'Naïve'],
        ['application/json; charset=UTF-8', Buffer.from('{"company_name":"Caffè ☕","country":"IT"}'), 'Caffè ☕'],
      ] as const) {
        const created = await postBytes(counterparts(), bytes, contentType);
        expect([contentType, created.status, created.body.company_name]).toEqual([contentType, 201, name]);
        const read = await api.http.get(`${counterparts()}/${created.body.id}`).set(rossi.auth).expect(200);
        expect(read.body.company_name).toBe(name);
      }
      for (const charset of ['utf-16', 'utf-16le', 'iso-2022-jp', 'shift_jis', 'x-unknown', '']) {
        const body = Buffer.from('{"company_name":"A","country":"IT"}', charset.startsWith('utf-16') ? 'utf16le' : 'latin1');
        expectError(await postBytes(counterparts(), body, `application/json; charset=${charset}`), 415, 'unsupported_media_type', undefined, /UTF-8/);
      }
    });

    it('refuses what no e-mail address holds (lone surrogates, CR/LF even quoted) in every e-mail member with 422, never a 500', async () => {
      // Real characters: JSON.stringify writes a lone surrogate as its escape (\\uD800), as a client library would.
      const hostile = ['a\uD800@rossi.it', '"a\uD800"@rossi.it', 'a@ros\uDC00si.it', '\uD83D@rossi.it'];
      const crlf = ['"a\r\nb"@rossi.it', '"a\nRCPT TO:<x@evil.test>"@rossi.it', '"a\r"@rossi.it', 'a\r\n@rossi.it'];
      const counterpart = (await api.http.post(counterparts()).set(rossi.auth).send({ company_name: 'PEC S.r.l.', country: 'IT' }).expect(201)).body.id;
      const valid = { to: 'cliente@bianchi.it', reply_to: 'fatture@rossi.it' };
      let cases = 0;
      for (const address of [...hostile, ...crlf]) {
        const requests: Array<[string, 'post' | 'patch', Record<string, unknown>, string]> = [
          [share(), 'post', { to: address, reply_to: valid.reply_to }, '/to'],
          [share(), 'post', { to: [valid.to, address], reply_to: valid.reply_to }, '/to/1'],
          [share(), 'post', { to: valid.to, reply_to: address }, '/reply_to'],
          [counterparts(), 'post', { company_name: 'PEC S.r.l.', country: 'IT', pec_address: address }, '/pec_address'],
          [`${counterparts()}/${counterpart}`, 'patch', { pec_address: address }, '/pec_address'],
        ];
        for (const [path, method, object, pointer] of requests) {
          const body = JSON.stringify(object);
          const response = await api.http[method](path).set(rossi.auth).set('content-type', 'application/json').send(body);
          expect([body, response.status, response.body.errors?.[0]?.source?.pointer]).toEqual([body, 422, pointer]);
          cases += 1;
        }
      }
      expect(cases).toBe(40);
      expect((await api.http.get(`${company}/documents/${documentId}/shares`).set(rossi.auth).expect(200)).body.data).toEqual([]);
    });
  });

  it(`refuses bodies nested more than ${MAX_BODY_DEPTH} levels deep with 400, before any transformer sees them`, async () => {
    const path = `${company}/documents/${documentId}/flows/${flowId}`;
    const patch = (body: string) => api.http.patch(path).set(rossi.auth).set('content-type', 'application/json').send(body);
    // 2,000 levels of arrays inside a member (4 KB): this overflowed class-transformer's stack (500).
    const arrays = await patch(`{"amount":${'['.repeat(2000)}${']'.repeat(2000)}}`);
    expectError(arrays, 400, 'bad_request', `/amount${'/0'.repeat(MAX_BODY_DEPTH - 1)}`, /more than 32 levels deep/);
    const objects = await patch(`{"amount":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`);
    expectError(objects, 400, 'bad_request', `/amount${'/a'.repeat(MAX_BODY_DEPTH - 1)}`, /more than 32 levels deep/);
    // A whole body of brackets, up to the body limit.
    expectError(await patch('['.repeat(500_000) + ']'.repeat(500_000)), 400, 'bad_request', '/0'.repeat(MAX_BODY_DEPTH));
    // At the limit the body is read (and refused for what it says, not for its depth).
    const atLimit = await patch(`{"amount":${'['.repeat(MAX_BODY_DEPTH - 1)}${']'.repeat(MAX_BODY_DEPTH - 1)}}`);
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.errors[0].detail).not.toMatch(/levels deep/);
    await api.http.get(path).set(rossi.auth).expect(200);
  });

  /**
   * Every write operation of the published OpenAPI document, walked: a new endpoint is covered the day it is documented.
   * Each member its body schema declares (nested ones too) gets hostile texts (lone surrogates, NUL, bytes that are not
   * UTF-8: 422 pointing at it), other JSON types and huge numbers; each object of the body gets prototype names (400
   * pointing at them); each operation gets bodies in other charsets, too deep, too large and not objects. No answer is
   * a 500 or undocumented (the client checks every answer against the document), every error has the documented shape.
   * Then each free-text member of an operation whose example is accepted gets valid but unusual text, which must be
   * stored exactly as sent (read back) or refused with 422 at its pointer.
   */
  describe('every write operation of the OpenAPI document', () => {
    type Schema = Record<string, unknown>;
    interface Operation {
      method: 'post' | 'put' | 'patch' | 'delete';
      template: string;
      schema?: Schema;
      example?: unknown;
    }
    interface Member {
      pointer: string;
      schema: Schema;
    }
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
      paths: Record<string, Record<string, Schema>>;
      components: { schemas: Record<string, Schema> };
    };
    const resolve = (schema: Schema | undefined): Schema =>
      schema?.$ref ? resolve(document.components.schemas[(schema.$ref as string).split('/').pop()!]) : (schema ?? {});
    const operations: Operation[] = Object.entries(document.paths).flatMap(([template, item]) =>
      (['post', 'put', 'patch', 'delete'] as const)
        .filter((method) => item[method])
        .map((method) => {
          const content = ((item[method].requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined)?.['application/json'];
          const examples = content?.examples as Record<string, { value: unknown }> | undefined;
          return {
            method,
            template,
            schema: content && resolve(content.schema as Schema),
            example: content?.example ?? (examples && Object.values(examples)[0].value),
          };
        }),
    );

    /** Every member a body schema declares, depth first, array items as their first element. */
    function membersOf(schema: Schema, pointer = ''): Member[] {
      const resolved = resolve(schema);
      const parts = [resolved, ...((resolved.allOf as Schema[] | undefined) ?? []).map(resolve)];
      const members: Member[] = [];
      for (const part of parts) {
        for (const [name, child] of Object.entries((part.properties as Record<string, Schema> | undefined) ?? {})) {
          const at = `${pointer}/${name}`;
          members.push({ pointer: at, schema: resolve(child) }, ...membersOf(child, at));
        }
        if (part.items) members.push(...membersOf(part.items as Schema, `${pointer}/0`));
      }
      return members;
    }

    const types = (schema: Schema): string[] => [schema.type ?? []].flat() as string[];
    const isObject = (member: Member) => types(member.schema).includes('object') || member.schema.properties !== undefined;
    /** A member a client writes free text into: a string without enum, pattern or format. */
    const isFreeText = (member: Member) =>
      types(member.schema).includes('string') && !member.schema.enum && !member.schema.pattern && !member.schema.format && !member.schema.oneOf;

    /** A copy of `body` with the value at `pointer` set, creating the objects and arrays on the way. */
    function withValue(body: unknown, pointer: string, value: unknown): Record<string, unknown> {
      const copy = structuredClone(body ?? {}) as Record<string, unknown>;
      const keys = pointer.split('/').slice(1);
      let at: Record<string, unknown> = copy;
      keys.slice(0, -1).forEach((key, index) => {
        if (typeof at[key] !== 'object' || at[key] === null) at[key] = /^\d+$/.test(keys[index + 1]) ? [] : {};
        at = at[key] as Record<string, unknown>;
      });
      // Defined, not assigned: `at.__proto__ = …` would set the prototype instead of adding a member.
      Object.defineProperty(at, keys.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
      return copy;
    }

    function valueAt(body: unknown, pointer: string): unknown {
      return pointer
        .split('/')
        .slice(1)
        .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), body);
    }

    /** Where the JSON text of a body holds MARK, the raw text given instead (raw numbers, escapes, bytes). */
    const MARK = '\u0001hostile\u0001';
    function rawBody(body: unknown, raw: string | Buffer): Buffer {
      const [before, after] = JSON.stringify(body).split(JSON.stringify(MARK));
      return Buffer.concat([Buffer.from(before), typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw, Buffer.from(after)]);
    }

    /** The example of an operation with ids the test tenant owns. */
    const created = new Map<string, string>();
    function ownedExample(operation: Operation): unknown {
      const ids: Record<string, unknown> = {
        account_id: accountId,
        flow_id: flowId,
        transaction_id: transactionId,
        document_id: documentId,
        flow_ids: [],
        url: 'http://127.0.0.1:9/hook',
        // The example's date is fixed, and soon in the past: without it, the payment is made today.
        requested_execution_date: undefined,
      };
      const replace = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(replace);
        if (!value || typeof value !== 'object') return value;
        return Object.fromEntries(
          Object.entries(value)
            .map(([key, item]) => {
              if (key in ids) return [key, ids[key]];
              // Another resource of the company, made by this walk (a category for a subcategory), else the example's.
              if (key.endsWith('_id') && created.has(`${key.slice(0, -3)}`)) return [key, created.get(key.slice(0, -3))];
              return [key, replace(item)];
            })
            .filter(([, item]) => item !== undefined),
        );
      };
      const owned = replace(operation.example);
      // An invoice is the company's own when it is the seller: its VAT number, as the other invoice tests write it.
      const seller = '/fattura_elettronica_header/cedente_prestatore/dati_anagrafici/id_fiscale_iva';
      return valueAt(owned, seller) ? withValue(withValue(owned, `${seller}/id_paese`, 'IT'), `${seller}/id_codice`, rossi.vatNumber.slice(2)) : owned;
    }

    /** The path of an operation on the test tenant: its company, and resources of it (made by the walk when it can). */
    function pathOf(operation: Operation): string {
      return (
        BASE_PATH +
        operation.template.replace(/\{([a-z_]+)\}/g, (_whole, name: string, offset: number) => {
          if (name === 'company_id') return rossi.companyId;
          // Only an e-invoice made through Flusso can be shared: the one this walk made gets past that check.
          if (name === 'document_id') return (operation.template.endsWith('/share-invoice') && created.get('invoice')) || documentId;
          const collection = operation.template
            .slice(0, offset - 1)
            .split('/')
            .pop()!;
          const fixtures: Record<string, string> = { documents: documentId, flows: flowId, transactions: transactionId, accounts: accountId };
          return created.get(collection) ?? fixtures[collection] ?? randomUUID();
        })
      );
    }

    let sent = 0;
    const problems: string[] = [];

    async function send(operation: Operation, body: string | Buffer | undefined, contentType = 'application/json'): Promise<Response> {
      sent += 1;
      const path = pathOf(operation);
      const request = api.http[operation.method](path).set(rossi.auth);
      if (body === undefined) return request;
      return typeof body === 'string'
        ? request.set('content-type', contentType).send(body)
        : request
            .set('content-type', contentType)
            .serialize((data: Buffer) => data as unknown as string)
            .send(body);
    }

    /** What is wrong with an answer: a 5xx, or an error body not in the documented shape. */
    function shapeProblem(response: Response): string | undefined {
      if (response.status >= 500) return `answered ${response.status}`;
      if (response.status < 400) return undefined;
      const errors = response.body?.errors as Array<Record<string, unknown>> | undefined;
      if (!Array.isArray(errors) || errors.length === 0) return 'an error without errors[]';
      for (const error of errors) {
        const code = error.code as keyof typeof ERROR_CODES;
        if (!ERROR_CODES[code] || error.title !== ERROR_CODES[code].title || typeof error.detail !== 'string') return `an error item ${JSON.stringify(error)}`;
      }
      if (response.body.meta?.request_id !== response.headers['x-request-id']) return 'no meta.request_id';
      return undefined;
    }

    /** Runs `work` over `items`, a few at a time: enough to keep the run short without crowding the machine. */
    async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < items.length) await work(items[next++]);
        }),
      );
    }

    function expectation(operation: Operation, what: string, response: Response, expected?: { status: number; pointer?: string; detail?: RegExp }): void {
      const where = `${operation.method.toUpperCase()} ${operation.template} ${what}`;
      const problem = shapeProblem(response);
      const seen = `${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
      if (problem) problems.push(`${where}: ${problem} (${seen})`);
      else if (expected) {
        const first = response.body.errors?.[0];
        if (response.status !== expected.status || first?.source?.pointer !== expected.pointer || (expected.detail && !expected.detail.test(first.detail))) {
          problems.push(`${where}: expected ${expected.status} at ${expected.pointer}, got ${seen}`);
        }
      }
    }

    /** Texts no member may store: each is a 422 at the member that holds it. */
    const UNSTORABLE: Array<[string, string | Buffer, RegExp]> = [
      ['a lone high surrogate', '"Rossi \\uD83D"', /lone surrogate/],
      ['a lone low surrogate', '"\\uDC00x"', /lone surrogate/],
      ['a NUL', '"A\\u0000B"', /NUL/],
      ['bytes that are not UTF-8', Buffer.concat([Buffer.from('"Caff'), Buffer.from([0xe8, 0xff]), Buffer.from('"')]), /not UTF-8/],
    ];
    /** Other JSON types and numbers past every limit: never a 500. */
    const OTHER_VALUES = [
      'null',
      'true',
      '-1',
      '1.5',
      '1e400',
      '123456789012345678901234567890',
      '"x"',
      '""',
      '[]',
      '{}',
      `"${'x'.repeat(5000)}"`,
      '[[[[[[1]]]]]]',
    ];
    const PROTOTYPE_MEMBERS = ['__proto__', 'constructor', 'prototype', 'toString'];

    it('never answers a 500, and points at the member at fault, for hostile input to any member of any write', async () => {
      const started = Date.now();
      // Resources first, so that the writes on `{id}` find one of the company.
      const ordered = [...operations].sort((a, b) => Number(a.template.includes('{id}')) - Number(b.template.includes('{id}')));
      for (const operation of ordered.filter((o) => o.method === 'post' && o.example !== undefined && !o.template.includes('{id}'))) {
        const response = await send(operation, JSON.stringify(ownedExample(operation)));
        const collection = operation.template.split('/').pop()!;
        // The resource, or the first of the documents an invoice made.
        const id = response.status < 300 ? (response.body?.id ?? response.body?.data?.[0]?.id) : undefined;
        if (id) created.set(collection, id).set(collection.replace(/ies$/, 'y').replace(/s$/, ''), id);
      }

      const cases: Array<() => Promise<void>> = [];
      // The writes that take a body (one that takes none, a DELETE, documents no answer to a body).
      const withBody = ordered.filter((o) => o.schema);
      for (const operation of withBody) {
        const example = ownedExample(operation);
        const members = membersOf(operation.schema!);
        const hostile = (pointer: string, raw: string | Buffer) => send(operation, rawBody(withValue(example, pointer, MARK), raw));
        members.forEach((member, index) => {
          // Each member gets one of the unstorable texts and one of the other values, in turn: every kind reaches
          // every part of the walk without multiplying the requests by the kinds.
          const [name, text, detail] = UNSTORABLE[index % UNSTORABLE.length];
          cases.push(async () => {
            expectation(operation, `${member.pointer} = ${name}`, await hostile(member.pointer, text), { status: 422, pointer: member.pointer, detail });
          });
          const other = OTHER_VALUES[index % OTHER_VALUES.length];
          cases.push(async () => expectation(operation, `${member.pointer} = ${other.slice(0, 20)}`, await hostile(member.pointer, other)));
        });
        // Prototype names: all of them in the body, one (in turn) in every object it declares.
        const parents = ['', ...members.filter(isObject).map((m) => m.pointer)];
        const placed = parents.flatMap((parent, index) =>
          (parent === '' ? PROTOTYPE_MEMBERS : [PROTOTYPE_MEMBERS[index % PROTOTYPE_MEMBERS.length]]).map((name) => `${parent}/${name}`),
        );
        for (const pointer of placed) {
          cases.push(async () => {
            const response = await hostile(pointer, '1');
            expectation(operation, pointer, response, { status: 400, pointer, detail: /^The member .* is not allowed in this request\.$/ });
          });
        }
        const utf16 = Buffer.from(JSON.stringify(example), 'utf16le');
        cases.push(async () => expectation(operation, 'charset=utf-16', await send(operation, utf16, 'application/json; charset=utf-16'), { status: 415 }));
        cases.push(async () =>
          expectation(operation, 'charset=shift_jis', await send(operation, JSON.stringify(example), 'application/json; charset=shift_jis'), { status: 415 }),
        );
        const deep = `{"a":${'['.repeat(100)}${']'.repeat(100)}}`;
        cases.push(async () =>
          expectation(operation, 'too deep', await send(operation, deep), { status: 400, pointer: `/a${'/0'.repeat(MAX_BODY_DEPTH - 1)}` }),
        );
        cases.push(async () => expectation(operation, 'too large', await send(operation, `{"a":"${'x'.repeat(api.config.bodyLimitBytes)}"}`), { status: 413 }));
        for (const body of ['[]', '"text"', 'null', '1', '{', '{"a":1,"a":2}', '\uFEFF{}']) {
          cases.push(async () => expectation(operation, body, await send(operation, body)));
        }
      }
      // Every write, with a body or without (a DELETE, an issue), with a hostile word in each path parameter: nothing is
      // found, nothing changes, nothing breaks.
      const WORDS = ['__proto__', 'constructor', '%ED%A0%80', '%00', '%uD800', "'%20OR%201=1--", '1e400', '..%2F..', 'x'.repeat(300)];
      for (const operation of ordered) {
        const parameters = [...operation.template.matchAll(/\{([a-z_]+)\}/g)].map(([whole]) => whole);
        parameters.forEach((parameter, index) => {
          const word = WORDS[index % WORDS.length];
          for (const value of [word, WORDS[(index + parameters.length + operations.indexOf(operation)) % WORDS.length]]) {
            cases.push(async () => {
              const hostileOperation = { ...operation, template: operation.template.replace(parameter, value) };
              const body = operation.schema ? JSON.stringify(ownedExample(operation)) : undefined;
              expectation(operation, `${parameter} = ${value.slice(0, 20)}`, await send(hostileOperation, body));
            });
          }
        });
      }
      await inParallel(cases, (work) => work());
      const unstorable = sent;

      // Text stored as sent: valid but unusual text in every free-text member of the writes whose example is accepted.
      const text = ' Ame\u0301lie 🙂 漢字 \u202eRossi\u200b "q" \\ <b>&amp;</b>\tx ';
      let compared = 0;
      for (const operation of ordered.filter((o) => o.schema && o.example !== undefined && o.method !== 'delete')) {
        for (const member of membersOf(operation.schema!).filter(isFreeText)) {
          // Lengths count characters (code points): a cut never splits an emoji into a lone surrogate.
          const characters = [...text];
          const maxLength = (member.schema.maxLength as number | undefined) ?? characters.length;
          const value = characters.slice(0, maxLength).join('');
          // Each value new, so that a unique name does not clash with the previous request's.
          const sentValue = maxLength >= characters.length + 6 ? `${value}${String(sent).padStart(5, '0')}` : value;
          // A member documented as transliterated (SEPA texts) is kept as its transliteration, nothing else.
          const expected = /transliterated/i.test(String(member.schema.description)) ? toSepaText(sentValue) : sentValue;
          const response = await send(operation, JSON.stringify(withValue(ownedExample(operation), member.pointer, sentValue)));
          const where = `${operation.method.toUpperCase()} ${operation.template} ${member.pointer}`;
          const problem = shapeProblem(response);
          if (problem) problems.push(`${where}: ${problem}`);
          if (response.status >= 300) continue;
          const path = pathOf(operation);
          const readPath =
            operation.method === 'post' && response.body?.id && document.paths[`${operation.template}/{id}`]?.get
              ? `${path}/${response.body.id}`
              : operation.method === 'patch' && document.paths[operation.template].get
                ? path
                : undefined;
          const answered = valueAt(response.body, member.pointer);
          if (answered !== undefined && answered !== expected) problems.push(`${where}: answered ${JSON.stringify(answered)} for ${JSON.stringify(sentValue)}`);
          if (!readPath) continue;
          sent += 1;
          const read = await api.http.get(readPath).set(rossi.auth);
          const stored = valueAt(read.body, member.pointer);
          if (stored === undefined) continue;
          compared += 1;
          if (stored !== expected) problems.push(`${where}: stored ${JSON.stringify(stored)} for ${JSON.stringify(sentValue)}`);
        }
      }
      console.log(
        `hostile input: ${operations.length} write operations (${withBody.length} with a body), ${sent} requests (${unstorable} hostile, ${compared} texts read back) in ${Date.now() - started} ms`,
      );
      expect(problems).toEqual([]);
      // The walk is a real check: it reached the writes and read texts back.
      expect(withBody.length).toBeGreaterThanOrEqual(20);
      expect(compared).toBeGreaterThanOrEqual(10);
    }, 120_000);
  });

  describe('requests refused by the HTTP parser, before Fastify and Nest', () => {
    /** Sends raw bytes and reads the answer until the server closes the connection. */
    function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
      const { port } = api.app.getHttpServer().address() as { port: number };
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(request));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
          const [statusLine, ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) });
        });
      });
    }

    beforeAll(async () => {
      // supertest listens only while its own requests run; raw requests need the server listening throughout.
      const server = api.app.getHttpServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      const server = api.app.getHttpServer();
      await new Promise((resolve) => server.close(resolve));
    });

    function expectRawError(answer: Awaited<ReturnType<typeof raw>>, status: number, code: keyof typeof ERROR_CODES, detail: RegExp): void {
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({
        errors: [{ code, title: ERROR_CODES[code].title, detail: expect.stringMatching(detail) }],
        meta: { request_id: answer.headers['x-request-id'] },
      });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers.connection).toBe('close');
    }

    it('headers over 16 KB: 431 headers_too_large', async () => {
      const answer = await raw(`GET ${company}/accounts HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(17_000)}\r\n\r\n`);
      expectRawError(answer, 431, 'headers_too_large', /larger than 16 KB/);
    });

    it('a request whose body stalls: 408 request_timeout, the connection closed (no slowloris)', async () => {
      const started = Date.now();
      // With a valid key: a request without one is answered 401 before its body is read.
      const head = `POST ${company}/reconciliations HTTP/1.1\r\nHost: x\r\nAuthorization: ${rossi.auth.Authorization}\r\nContent-Type: application/json\r\n`;
      const answer = await raw(`${head}Content-Length: 40\r\n\r\n{"flow`);
      expectRawError(answer, 408, 'request_timeout', /not received in time/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    });

    it('a malformed or duplicated Content-Length: 400 bad_request', async () => {
      const post = `POST ${company}/reconciliations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n`;
      expectRawError(await raw(`${post}Content-Length: abc\r\n\r\n{}`), 400, 'bad_request', /Content-Length/);
      expectRawError(await raw(`${post}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`), 400, 'bad_request', /Content-Length/);
      const both = `${post}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`;
      expectRawError(await raw(both), 400, 'bad_request', /Transfer-Encoding.*Content-Length/);
    });

    it('broken chunked encoding: 400 bad_request', async () => {
      const post = `POST ${company}/reconciliations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      expectRawError(await raw(`${post}zz\r\n{}\r\n0\r\n\r\n`), 400, 'bad_request', /chunked/);
    });

    it('something that is not HTTP: 400 bad_request', async () => {
      expectRawError(await raw('HELLO\r\n\r\n'), 400, 'bad_request', /not valid HTTP/);
    });
  });
});
