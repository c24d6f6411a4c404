import { beforeAll, describe, expect, it } from '@jest/globals';
import { compareAmounts } from '../common/money/money.js';
import { documentFormat } from '../documents/document-format.js';
import type { DocumentDto } from '../documents/document.dto.js';
import type { FlowDto } from '../flows/flow.dto.js';
import type { ReconciliationDto } from '../transactions/reconciliation.dto.js';
import { DocumentSchemas, pointerToken } from '../../test/document-schemas.js';
import { generateOpenApiJson } from '../openapi-file.js';

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Operation {
  operationId: string;
  parameters?: Array<Json & { name: string; schema?: Json; example?: unknown }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}

/** One example of the document and where its schema is. */
interface Found {
  where: string;
  schema: string;
  value: unknown;
  operation?: Operation;
  summary?: string;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every example of the document: of media types, parameters and schemas, each with the pointer of its schema. */
function examplesOf(document: Json): Found[] {
  const found: Found[] = [];
  const media = (content: Record<string, Media> | undefined, at: string, operation: Operation) => {
    for (const [type, entry] of Object.entries(content ?? {})) {
      if (!entry.schema) continue;
      // Only JSON and text bodies (createInvoice's XML, the files answered) have a schema an example can be checked with.
      if (type !== 'application/json' && entry.schema.type !== 'string') continue;
      const schema = `${at}/content/${pointerToken(type)}/schema`;
      if (entry.example !== undefined) found.push({ where: `${schema} example`, schema, value: entry.example, operation });
      for (const [name, named] of Object.entries(entry.examples ?? {}))
        found.push({ where: `${schema} examples.${name}`, schema, value: named.value, operation, summary: named.summary });
    }
  };
  const operations = (items: Json, root: string) => {
    for (const [path, item] of Object.entries(items)) {
      for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
        if (!isObject(operation) || !('responses' in operation)) continue;
        const at = `#/${root}/${pointerToken(path)}/${method}`;
        (operation.parameters ?? []).forEach((parameter, index) => {
          if (parameter.example !== undefined)
            found.push({ where: `${at} ${parameter.name}`, schema: `${at}/parameters/${index}/schema`, value: parameter.example });
        });
        if (operation.requestBody) media(operation.requestBody.content, `${at}/requestBody`, operation);
        for (const [status, response] of Object.entries(operation.responses)) media(response.content, `${at}/responses/${status}`, operation);
      }
    }
  };
  operations(document.paths as Json, 'paths');
  operations(document.webhooks as Json, 'webhooks');
  // Schemas' own examples, wherever a schema is: components, parameters, bodies, headers, and inside other schemas.
  const schema = (node: unknown, pointer: string) => {
    if (!isObject(node)) return;
    if (Array.isArray(node.examples)) node.examples.forEach((value, index) => found.push({ where: `${pointer} examples[${index}]`, schema: pointer, value }));
    for (const key of ['items', 'additionalProperties', 'not']) schema(node[key], `${pointer}/${key}`);
    for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'])
      if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((part, index) => schema(part, `${pointer}/${key}/${index}`));
    for (const key of ['properties', '$defs'])
      if (isObject(node[key])) for (const [name, member] of Object.entries(node[key] as Json)) schema(member, `${pointer}/${key}/${pointerToken(name)}`);
  };
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((child, index) => walk(child, `${pointer}/${index}`));
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      const at = `${pointer}/${pointerToken(key)}`;
      if (key === 'example' || key === 'examples') continue;
      if (key === 'schema') schema(child, at);
      else if (pointer === '#/components' && key === 'schemas')
        for (const [name, member] of Object.entries(child as Json)) schema(member, `${at}/${pointerToken(name)}`);
      else walk(child, at);
    }
  };
  walk(document, '#');
  return found;
}

/** Every object in a value for which `is` holds, depth first. */
function objectsIn<T>(value: unknown, is: (object: Json) => boolean): T[] {
  if (Array.isArray(value)) return value.flatMap((child) => objectsIn<T>(child, is));
  if (!isObject(value)) return [];
  return [...(is(value) ? [value as T] : []), ...Object.values(value).flatMap((child) => objectsIn<T>(child, is))];
}

const sum = (amounts: string[]) => amounts.reduce((total, amount) => total + Math.round(Number(amount) * 100), 0);

describe('the examples of the OpenAPI document', () => {
  let document: Json;
  let schemas: DocumentSchemas;
  let examples: Found[];

  beforeAll(async () => {
    document = JSON.parse(await generateOpenApiJson());
    schemas = new DocumentSchemas(document);
    examples = examplesOf(document);
  });

  it('are many: of media types (requests, answers, errors, webhooks), parameters and schemas', () => {
    expect(examples.length).toBeGreaterThan(500);
    expect(examples.some((e) => e.where.includes('/webhooks/'))).toBe(true);
    expect(examples.some((e) => e.where.includes('/responses/422/'))).toBe(true);
  });

  it('each validate against their own schema (JSON Schema 2020-12, formats checked)', () => {
    const invalid = examples.flatMap((example) => {
      const problems = schemas.problems(example.schema, example.value);
      return problems.length ? [`${example.where}: ${problems.join('; ')}`] : [];
    });
    expect(invalid).toEqual([]);
  });

  it('give every success answer with a body and every JSON request body a whole example', () => {
    const missing: string[] = [];
    for (const item of [...Object.values(document.paths as Json), ...Object.values(document.webhooks as Json)]) {
      for (const operation of Object.values(item as Record<string, Operation>)) {
        if (!isObject(operation) || !('responses' in operation)) continue;
        const has = (media: Media) => media.example !== undefined || Object.keys(media.examples ?? {}).length > 0;
        const binary = (media: Media) => (media as { schema?: { format?: string } }).schema?.format === 'binary';
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {}))
            if (status.startsWith('2') && !has(media) && !binary(media)) missing.push(`${operation.operationId} ${status} ${type}`);
        }
        // A signed invoice file is binary, made by its signer, and so are PDFs and scans: no text example can stand for one.
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
          if (!has(media) && type !== 'application/pkcs7-mime' && !binary(media)) missing.push(`${operation.operationId} request ${type}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('keep the rules: amounts, flows, references and expansions agree', () => {
    const broken: string[] = [];
    const check = (where: string, ok: boolean, rule: string) => ok || broken.push(`${where}: ${rule}`);
    for (const example of examples.filter((e) => e.operation)) {
      const where = example.where;
      const expanded = example.summary?.match(/^With expand=(.+)$/)?.[1].split(',');
      const expandable = (example.operation!.parameters ?? []).some((p) => p.name === 'expand');
      for (const document of objectsIn<DocumentDto>(example.value, (o) => 'gross_amount' in o && 'direction' in o)) {
        check(where, compareAmounts(document.vat_amount.amount, document.gross_amount.amount) < 0, `${document.number}: VAT below the gross amount`);
        if (document.flows) {
          check(
            where,
            sum(document.flows.map((f) => f.amount.amount)) <= sum([document.gross_amount.amount]),
            `${document.number}: flows within the gross amount`,
          );
          check(
            where,
            document.flows.every((f) => f.document_id === document.id),
            `${document.number}: its flows name it`,
          );
        }
        for (const member of ['category', 'subcategory', 'counterpart'] as const) {
          const object = document[member];
          check(where, object === null || object.id === document[`${member}_id`], `${document.number}: ${member}.id is ${member}_id`);
          check(where, document[`${member}_id`] !== null || object === null, `${document.number}: no ${member} without ${member}_id`);
        }
        if (expandable) {
          for (const member of ['category', 'subcategory', 'counterpart', 'flows'] as const) {
            if (!expanded?.includes(member)) check(where, document[member] === null, `${document.number}: ${member} null unless expanded`);
          }
        }
        if (!document.is_e_invoice && document.format !== 'FSM10') {
          check(
            where,
            document.format === documentFormat(document.direction, document.counterpart && { destinationCode: document.counterpart.destination_code }),
            `${document.number}: format by the rule`,
          );
        }
      }
      for (const flow of objectsIn<FlowDto>(example.value, (o) => 'paid_amount' in o && 'payment_status' in o)) {
        const paid = compareAmounts(flow.paid_amount.amount, flow.amount.amount) >= 0 && compareAmounts(flow.paid_amount.amount, '0') > 0;
        check(where, paid === (flow.payment_status === 'PAID'), `flow ${flow.id}: PAID exactly when its reconciliations cover it`);
        check(where, (flow.payment_date !== null) === (flow.payment_status === 'PAID'), `flow ${flow.id}: a payment date exactly when PAID`);
      }
      for (const reconciliation of objectsIn<ReconciliationDto>(example.value, (o) => 'flow_id' in o && 'transaction_id' in o && 'amount' in o)) {
        const { flow, transaction } = reconciliation;
        if (flow)
          check(
            where,
            flow.id === reconciliation.flow_id && compareAmounts(flow.paid_amount.amount, reconciliation.amount.amount) >= 0,
            'reconciliation: its flow, paid at least its amount',
          );
        if (transaction)
          check(
            where,
            transaction.id === reconciliation.transaction_id && compareAmounts(transaction.amount.amount, reconciliation.amount.amount) >= 0,
            'reconciliation: its transaction, at least its amount',
          );
      }
    }
    expect(broken).toEqual([]);
  });

  it("name each operation's own error codes: its permission, its query or body problems, its rule codes", () => {
    const codes = (id: string, status: string): string[] => {
      const operation = Object.values(document.paths as Json)
        .flatMap((item) => Object.values(item as Record<string, Operation>))
        .find((o) => isObject(o) && o.operationId === id)!;
      const media = operation.responses[status]?.content?.['application/json'];
      if (!media) return [];
      const values = media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
      return values.map((value) => (value as { errors: Array<{ code: string }> }).errors[0].code);
    };
    expect(codes('listDocuments', '400')).toEqual(['invalid_query_parameter', 'invalid_cursor']);
    expect(codes('getDocument', '400')).toEqual(['invalid_query_parameter']);
    expect(codes('createReconciliation', '400')).toEqual(['bad_request', 'invalid_idempotency_key', 'invalid_query_parameter']);
    expect(codes('createReconciliation', '409')).toEqual(['idempotency_key_in_progress']);
    expect(codes('createReconciliation', '422')).toEqual(
      expect.arrayContaining(['reconciliation_exists', 'currency_mismatch', 'transaction_fully_reconciled', 'idempotency_key_reused']),
    );
    expect(codes('updateFlow', '403')).toEqual(['forbidden', 'insufficient_permission']);
    // Every valid key may list its companies (spec section 8: no 403 there).
    expect(codes('listCompanies', '403')).toEqual([]);
    const permission = Object.values(
      ((document.paths as Json)['/companies/{company_id}/reconciliations'] as Record<string, Operation>).post.responses['403'].content!['application/json']
        .examples!,
    ).map((e) => (e.value as { errors: Array<{ required_permission?: string }> }).errors[0].required_permission);
    expect(permission).toEqual([undefined, 'reconciliations:write']);
  });

  it('list 402 only on the counterpart search, whose outside registry may fail, and 502 and 504 nowhere', () => {
    const statuses = new Map<string, string[]>();
    for (const item of Object.values(document.paths as Json)) {
      for (const operation of Object.values(item as Record<string, Operation>))
        if (isObject(operation)) statuses.set(operation.operationId, Object.keys(operation.responses));
    }
    expect([...statuses].filter(([, s]) => s.includes('402')).map(([id]) => id)).toEqual(['searchCounterparts']);
    expect([...statuses].filter(([, s]) => s.includes('502') || s.includes('504'))).toEqual([]);
  });
});
