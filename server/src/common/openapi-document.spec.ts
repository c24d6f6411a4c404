import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startApi, type TestApi } from '../../test/api.js';
import { accountList } from '../accounts/accounts.repository.js';
import { categoryList, subcategoryList } from '../categories/categories.repository.js';
import { companyList } from '../companies/companies.repository.js';
import { counterpartList } from '../counterparts/counterparts.repository.js';
import { documentList } from '../documents/documents.repository.js';
import { flowList } from '../flows/flows.repository.js';
import { paymentBatchList } from '../payments/payment-batches.repository.js';
import { productList } from '../products/products.repository.js';
import { sectionalList } from '../sectionals/sectionals.repository.js';
import { reconciliationList } from '../reconciliations/reconciliations.repository.js';
import { shareList } from '../shares/shares.service.js';
import { transactionList } from '../transactions/transactions.repository.js';
import { ERROR_CODES } from './errors/error-codes.js';
import { allEventsList, eventList } from '../events/event-list.js';
import { requestLogList } from '../request-logs/request-logs.repository.js';
import { webhookDeliveryList, webhookEndpointList } from '../webhooks/webhook-endpoints.service.js';
import { apiKeyList } from './auth/api-keys.repository.js';
import { OPERATORS_BY_TYPE, type ListSpec } from './listing/list-spec.js';

interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: unknown;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses: Record<string, { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
  'x-flusso-list'?: { filters: Record<string, string[]>; sorts: string[]; expansions: string[] };
}

/** Every operation of this API: its tag, and the statuses spec section 8 (and the team contract) say it answers. */
const OPERATIONS: Record<string, { tag: string; success: string; list?: ListSpec; errors: number[] }> = {
  listCompanies: { tag: 'Companies', success: '200', list: companyList, errors: [400, 401, 429, 500] },
  listAccounts: { tag: 'Accounts', success: '200', list: accountList, errors: [400, 401, 403, 429, 500] },
  getAccount: { tag: 'Accounts', success: '200', errors: [401, 403, 404, 429] },
  listCategories: { tag: 'Categories', success: '200', list: categoryList, errors: [400, 401, 403, 429, 500] },
  getCategory: { tag: 'Categories', success: '200', errors: [401, 403, 404, 429] },
  createCategory: { tag: 'Categories', success: '201', errors: [400, 401, 403, 422, 429] },
  updateCategory: { tag: 'Categories', success: '200', errors: [400, 401, 403, 404, 422, 429] },
  deleteCategory: { tag: 'Categories', success: '204', errors: [401, 403, 404, 409, 429] },
  listSubcategories: { tag: 'Categories', success: '200', list: subcategoryList, errors: [400, 401, 403, 429, 500] },
  getSubcategory: { tag: 'Categories', success: '200', errors: [401, 403, 404, 429] },
  createSubcategory: { tag: 'Categories', success: '201', errors: [400, 401, 403, 404, 422, 429] },
  updateSubcategory: { tag: 'Categories', success: '200', errors: [400, 401, 403, 404, 422, 429] },
  deleteSubcategory: { tag: 'Categories', success: '204', errors: [401, 403, 404, 409, 429] },
  listCounterparts: { tag: 'Counterparts', success: '200', list: counterpartList, errors: [400, 401, 403, 404, 429] },
  getCounterpart: { tag: 'Counterparts', success: '200', errors: [401, 403, 404, 429] },
  createCounterpart: { tag: 'Counterparts', success: '201', errors: [400, 401, 403, 409, 422, 429] },
  updateCounterpart: { tag: 'Counterparts', success: '200', errors: [400, 401, 403, 404, 409, 422, 429] },
  searchCounterparts: { tag: 'Counterparts', success: '200', errors: [400, 401, 403, 404, 429] },
  listDocuments: { tag: 'Documents', success: '200', list: documentList, errors: [400, 401, 403, 429, 500] },
  getDocument: { tag: 'Documents', success: '200', errors: [401, 403, 404, 429] },
  updateDocument: { tag: 'Documents', success: '200', errors: [400, 401, 403, 404, 422, 429] },
  deleteDocument: { tag: 'Documents', success: '204', errors: [401, 403, 404, 409, 429] },
  createInvoice: { tag: 'Documents', success: '201', errors: [400, 401, 403, 404, 413, 415, 422, 429] },
  issueDocument: { tag: 'Documents', success: '200', errors: [400, 401, 403, 404, 422, 429] },
  getInvoice: { tag: 'Documents', success: '200', errors: [401, 403, 404, 429] },
  getInvoiceFile: { tag: 'Documents', success: '200', errors: [403, 404] },
  shareInvoice: { tag: 'Documents', success: '202', errors: [400, 401, 403, 404, 413, 415, 422, 429] },
  listInvoiceShares: { tag: 'Documents', success: '200', list: shareList, errors: [400, 401, 403, 404, 429] },
  getInvoiceShare: { tag: 'Documents', success: '200', errors: [401, 403, 404, 429] },
  listFlows: { tag: 'Flows', success: '200', list: flowList, errors: [400, 401, 403, 429] },
  getFlow: { tag: 'Flows', success: '200', errors: [401, 403, 404, 429] },
  createFlow: { tag: 'Flows', success: '201', errors: [400, 401, 403, 404, 422, 429] },
  updateFlow: { tag: 'Flows', success: '200', errors: [400, 401, 403, 404, 422, 429] },
  deleteFlow: { tag: 'Flows', success: '204', errors: [401, 403, 404, 409, 429] },
  listReconciliations: { tag: 'Reconciliations', success: '200', list: reconciliationList, errors: [400, 401, 403, 429, 500] },
  getReconciliation: { tag: 'Reconciliations', success: '200', errors: [401, 403, 404, 429] },
  createReconciliation: { tag: 'Reconciliations', success: '201', errors: [400, 401, 403, 404, 422, 429] },
  deleteReconciliation: { tag: 'Reconciliations', success: '204', errors: [401, 403, 404, 429] },
  listWebhookEndpoints: { tag: 'Webhooks', success: '200', list: webhookEndpointList, errors: [400, 401, 403, 429] },
  createWebhookEndpoint: { tag: 'Webhooks', success: '201', errors: [400, 401, 403, 422, 429] },
  getWebhookEndpoint: { tag: 'Webhooks', success: '200', errors: [401, 403, 404, 429] },
  updateWebhookEndpoint: { tag: 'Webhooks', success: '200', errors: [400, 401, 403, 404, 409, 422, 429] },
  deleteWebhookEndpoint: { tag: 'Webhooks', success: '204', errors: [401, 403, 404, 429] },
  rotateWebhookSecret: { tag: 'Webhooks', success: '200', errors: [401, 403, 404, 429] },
  listWebhookDeliveries: { tag: 'Webhooks', success: '200', list: webhookDeliveryList, errors: [400, 401, 403, 404, 429] },
  replayWebhookEvent: { tag: 'Webhooks', success: '202', errors: [400, 401, 403, 404, 429] },
  listApiKeys: { tag: 'API keys', success: '200', list: apiKeyList, errors: [400, 401, 403, 429] },
  getApiKey: { tag: 'API keys', success: '200', errors: [401, 403, 404, 429] },
  createApiKey: { tag: 'API keys', success: '201', errors: [400, 401, 403, 422, 429] },
  rollApiKey: { tag: 'API keys', success: '200', errors: [400, 401, 403, 404, 422, 429] },
  revokeApiKey: { tag: 'API keys', success: '200', errors: [401, 403, 404, 429, 503] },
  listRequestLogs: { tag: 'Request logs', success: '200', list: requestLogList, errors: [400, 401, 403, 429] },
  getRequestLog: { tag: 'Request logs', success: '200', errors: [401, 403, 404, 429] },
  testWebhookEndpoint: { tag: 'Webhooks', success: '202', errors: [401, 403, 404, 409, 429] },
  listEvents: { tag: 'Events', success: '200', list: eventList, errors: [400, 401, 403, 429, 500] },
  listAllEvents: { tag: 'Events', success: '200', list: allEventsList, errors: [400, 401, 403, 429, 500] },
  getEvent: { tag: 'Events', success: '200', errors: [401, 403, 404, 429] },
  listProducts: { tag: 'Products', success: '200', list: productList, errors: [400, 401, 403, 429, 500] },
  getProduct: { tag: 'Products', success: '200', errors: [401, 403, 404, 429] },
  createProduct: { tag: 'Products', success: '201', errors: [400, 401, 403, 409, 422, 429] },
  updateProduct: { tag: 'Products', success: '200', errors: [400, 401, 403, 404, 409, 422, 429] },
  deleteProduct: { tag: 'Products', success: '204', errors: [401, 403, 404, 429] },
  listTransactions: { tag: 'Transactions', success: '200', list: transactionList, errors: [400, 401, 403, 429, 500] },
  getTransaction: { tag: 'Transactions', success: '200', errors: [401, 403, 404, 429] },
  createBulkPayment: { tag: 'Payments', success: '201', errors: [400, 401, 403, 404, 422, 429] },
  listPaymentBatches: { tag: 'Payments', success: '200', list: paymentBatchList, errors: [400, 401, 403, 429] },
  getPaymentBatch: { tag: 'Payments', success: '200', errors: [401, 403, 404, 429] },
  getPaymentBatchFile: { tag: 'Payments', success: '200', errors: [401, 403, 404, 429] },
  createF24OcrRequest: { tag: 'Payments', success: '202', errors: [400, 401, 403, 404, 413, 415, 422, 429] },
  getF24Request: { tag: 'Payments', success: '200', errors: [401, 403, 404, 429] },
  getF24RequestFile: { tag: 'Payments', success: '200', errors: [401, 403, 404, 429] },
  updateTransaction: { tag: 'Transactions', success: '200', errors: [400, 401, 403, 404, 422, 429] },
  listSectionals: { tag: 'Sectionals', success: '200', list: sectionalList, errors: [400, 401, 403, 429] },
  getSectional: { tag: 'Sectionals', success: '200', errors: [401, 403, 404, 429] },
  createSectional: { tag: 'Sectionals', success: '201', errors: [400, 401, 403, 409, 422, 429] },
  updateSectional: { tag: 'Sectionals', success: '200', errors: [400, 401, 403, 404, 409, 422, 429] },
  createSandboxTransactions: { tag: 'Sandbox', success: '201', errors: [400, 401, 403, 404, 422, 429] },
  receiveSandboxInvoice: { tag: 'Sandbox', success: '201', errors: [400, 401, 403, 404, 415, 422, 429] },
  deliverSandboxSdiNotices: { tag: 'Sandbox', success: '200', errors: [401, 403, 404, 422, 429] },
};
/** Added by the outbound-delivery issue; allowed but not required yet. */
const LATER: string[] = [];
/** Operations that take no API key: the signed link to an invoice's XML. */
const PUBLIC = ['getInvoiceFile'];

describe('GET /api/v1/openapi.json', () => {
  let api: TestApi;
  let document: {
    openapi: string;
    info: { version: string; title: string; contact?: { email?: string }; license?: { name: string; url?: string } };
    servers: Array<{ url: string }>;
    security?: unknown;
    tags: Array<{ name: string }>;
    components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    paths: Record<string, Record<string, OperationObject>>;
  };
  let operations: Map<string, OperationObject & { method: string; path: string }>;

  beforeAll(async () => {
    api = await startApi();
    const response = await api.http.get('/api/v1/openapi.json').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.body;
    operations = new Map();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operations.set(operation.operationId ?? `${method} ${path}`, { ...operation, method, path });
      }
    }
  });

  afterAll(() => api.close());

  it('is public, OpenAPI 3, version 1.2.0, and validates', async () => {
    expect(document.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(document.info.version).toBe('1.2.0');
    // What linters (Redocly's recommended rules) and generated clients' package metadata look for.
    expect(document.info.contact?.email).toBe('developers@flusso.example');
    expect(document.info.license).toEqual({ name: 'Flusso terms of service', url: 'https://www.flusso.example/termini' });
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    expect(document.servers.map((s) => s.url)).toEqual(['https://api.sandbox.flusso.example/api/v1', 'https://api.flusso.example/api/v1']);
    expect(document.components.securitySchemes.authorization).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });

  it('has exactly the known operations (the invoice ones may come later), each with its path and method', () => {
    const names = [...operations.keys()].filter((n) => !LATER.includes(n)).sort();
    expect(names).toEqual(Object.keys(OPERATIONS).sort());
    const where = (id: string) => `${operations.get(id)?.method.toUpperCase()} ${operations.get(id)?.path}`;
    expect(where('searchCounterparts')).toBe('GET /counterparts/search');
    expect(where('updateFlow')).toBe('PATCH /companies/{company_id}/documents/{document_id}/flows/{id}');
    expect(where('createReconciliation')).toBe('POST /companies/{company_id}/reconciliations');
    expect(where('deleteReconciliation')).toBe('DELETE /companies/{company_id}/reconciliations/{id}');
    expect(where('createBulkPayment')).toBe('POST /companies/{company_id}/requests/bulk-payment');
    expect(where('getPaymentBatchFile')).toBe('GET /companies/{company_id}/payment-batches/{id}/file');
    expect(Object.keys(operations.get('getPaymentBatchFile')!.responses['200'].content ?? {})).toEqual(['application/xml']);
  });

  it('gives every operation an operationId, a known tag, a summary and the bearer security', () => {
    const tags = document.tags.map((t) => t.name);
    for (const [id, operation] of operations) {
      if (LATER.includes(id)) continue;
      expect([id, operation.tags]).toEqual([id, [OPERATIONS[id].tag]]);
      expect(tags).toContain(OPERATIONS[id].tag);
      expect([id, typeof operation.summary === 'string' && operation.summary.length > 0]).toEqual([id, true]);
      expect([id, operation.security ?? document.security]).toEqual([id, PUBLIC.includes(id) ? [] : [{ authorization: [] }]]);
    }
  });

  it('documents the error statuses spec section 8 names, each with the integration error schema', () => {
    for (const [id, expected] of Object.entries(OPERATIONS)) {
      const responses = operations.get(id)!.responses;
      expect([id, Object.keys(responses).includes(expected.success)]).toEqual([id, true]);
      for (const status of expected.errors) {
        const response = responses[String(status)];
        expect([id, status, response?.content?.['application/json']?.schema?.$ref]).toEqual([id, status, '#/components/schemas/IntegrationError']);
      }
      // 403 everywhere but the company list, which every valid key may call (spec section 8).
      expect([id, '403' in responses]).toEqual([id, id !== 'listCompanies']);
    }
  });

  it("names each operation's own error codes, each with an example of its status", () => {
    type Media = { example?: ErrorExample; examples?: Record<string, { value: ErrorExample }> };
    type ErrorExample = { errors: Array<{ code: keyof typeof ERROR_CODES }> };
    const codesOf = (id: string, status: number): string[] => {
      const media = (operations.get(id)!.responses[String(status)]?.content?.['application/json'] ?? {}) as Media;
      const examples = media.example ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
      return examples.map((example) => example.errors[0].code);
    };
    for (const [id, operation] of operations) {
      for (const status of Object.keys(operation.responses).filter((s) => Number(s) >= 400)) {
        for (const code of codesOf(id, Number(status)))
          expect([id, code, ERROR_CODES[code as keyof typeof ERROR_CODES]?.status]).toEqual([id, code, Number(status)]);
      }
    }
    expect(codesOf('createFlow', 422)).toEqual(['unprocessable_entity', 'currency_mismatch', 'flows_exceed_gross_amount', 'idempotency_key_reused']);
    expect(codesOf('updateFlow', 422)).toEqual([
      'unprocessable_entity',
      'currency_mismatch',
      'amount_below_reconciled',
      'flows_exceed_gross_amount',
      'invalid_state',
    ]);
    expect(codesOf('deleteFlow', 409)).toEqual(['flow_reconciled']);
    expect(codesOf('deleteDocument', 409)).toEqual(['document_sent_to_sdi', 'sectional_gap']);
    expect(codesOf('createInvoice', 422)).toEqual([
      'invalid_invoice',
      'invalid_signed_file',
      'sdi_check_failed',
      'invoice_number_given',
      'sectional_year_mismatch',
      'invoice_too_complex',
      'idempotency_key_reused',
    ]);
    expect(codesOf('updateDocument', 422)).toEqual(['unprocessable_entity', 'subcategory_mismatch']);
    expect(codesOf('updateTransaction', 422)).toEqual(['unprocessable_entity', 'subcategory_mismatch']);
    expect(operations.get('createFlow')!.responses['422'].description).toMatch(
      /Codes `unprocessable_entity`, `currency_mismatch`, `flows_exceed_gross_amount`\./,
    );
  });

  it('carries x-flusso-list on list operations with exactly the fields their ListSpecs declare', () => {
    for (const [id, expected] of Object.entries(OPERATIONS)) {
      const operation = operations.get(id)!;
      if (!expected.list) {
        expect([id, operation['x-flusso-list']]).toEqual([id, undefined]);
        continue;
      }
      const spec = expected.list;
      expect([id, operation['x-flusso-list']]).toEqual([
        id,
        {
          filters: Object.fromEntries([...spec.filters].map(([field, s]) => [field, [...OPERATORS_BY_TYPE[s.type]]])),
          sorts: [...spec.sorts.keys()],
          expansions: [...spec.expansions],
          default_sort: spec.defaultSort.map((s) => (s.direction === 'DESC' ? '-' : '') + s.field).join(','),
        },
      ]);
      const parameters = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const wanted = ['page_size', 'cursor'];
      if (spec.sorts.size) wanted.push('sort');
      if (spec.expansions.length) wanted.push('expand');
      for (const [field, fieldSpec] of spec.filters) {
        for (const op of OPERATORS_BY_TYPE[fieldSpec.type]) wanted.push(op === 'eq' ? `filter[${field}]` : `filter[${field}__${op}]`);
      }
      expect([id, [...parameters].sort()]).toEqual([id, [...wanted].sort()]);
      // sort and expand: lists of the values the ListSpec allows, comma-separated.
      const parameter = (name: string) => (operation.parameters ?? []).find((p) => p.name === name) as unknown as Record<string, unknown> | undefined;
      if (spec.sorts.size) {
        expect([id, parameter('sort')]).toMatchObject([
          id,
          { style: 'form', explode: false, schema: { type: 'array', items: { enum: [...spec.sorts.keys()].flatMap((s) => [s, `-${s}`]) } } },
        ]);
      }
      if (spec.expansions.length) {
        expect([id, parameter('expand')]).toMatchObject([
          id,
          { style: 'form', explode: false, schema: { type: 'array', items: { enum: [...spec.expansions] } } },
        ]);
      }
    }
  });

  it('names every list answer after its items, with the one Page', () => {
    const item = (id: string) => operations.get(id)!.responses['200'].content!['application/json'].schema!.$ref!.split('/').pop();
    expect(item('listDocuments')).toBe('DocumentList');
    expect(item('listTransactions')).toBe('TransactionList');
    expect(item('listReconciliations')).toBe('ReconciliationList');
    expect(document.components.schemas.DocumentList).toEqual({
      type: 'object',
      properties: {
        data: { type: 'array', description: expect.any(String), items: { $ref: '#/components/schemas/Document' } },
        page: { $ref: '#/components/schemas/Page' },
      },
      required: ['data', 'page'],
    });
    for (const [id, expected] of Object.entries(OPERATIONS)) {
      if (!expected.list) continue;
      const name = item(id)!;
      expect([id, name.endsWith('List'), (document.components.schemas[name] as { properties: { page: unknown } }).properties.page]).toEqual([
        id,
        true,
        { $ref: '#/components/schemas/Page' },
      ]);
    }
    expect(document.components.schemas.CategoryRef).toBeUndefined();
  });

  it('takes a list of enum values for filter[FIELD__in], comma-separated', () => {
    const status = (operations.get('listDocuments')!.parameters ?? []).find((p) => p.name === 'filter[status__in]') as unknown;
    expect(status).toMatchObject({
      in: 'query',
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: expect.arrayContaining(['DELIVERED', 'DRAFT']) } },
    });
  });

  it('matches the list vocabulary of spec section 7', () => {
    const list = (id: string) => operations.get(id)!['x-flusso-list']!;
    expect(Object.keys(list('listAccounts').filters)).toEqual(['id']);
    expect(list('listAccounts').sorts).toEqual(['created_at']);
    expect(Object.keys(list('listCategories').filters)).toEqual(['id', 'name']);
    expect(Object.keys(list('listSubcategories').filters)).toEqual(['id', 'category_id', 'name']);
    expect(Object.keys(list('listCounterparts').filters).sort()).toEqual(['company_name', 'tax_number', 'vat_number']);
    expect(Object.keys(list('listDocuments').filters).sort()).toEqual([
      'counterpart_company_name',
      'creation_date',
      'delivery_date',
      'direction',
      'notes',
      'number',
      'source_id',
      'status',
      'type',
    ]);
    expect(list('listDocuments').sorts.sort()).toEqual(['created_at', 'creation_date', 'delivery_date', 'number']);
    expect(list('listDocuments').expansions.sort()).toEqual(['category', 'flows', 'subcategory']);
    expect(Object.keys(list('listReconciliations').filters).sort()).toEqual(['created_at', 'flow_id', 'transaction_id']);
    expect(list('listReconciliations').expansions.sort()).toEqual(['flow', 'transaction']);
    expect(Object.keys(list('listTransactions').filters).sort()).toEqual([
      'account_id',
      'amount',
      'booking_date_time',
      'clean_description',
      'counterpart_name',
      'date',
      'description',
      'type',
    ]);
    expect(list('listTransactions').sorts.sort()).toEqual(['amount', 'created_at', 'date']);
    expect(list('listTransactions').expansions.sort()).toEqual(['category', 'reconciliations', 'reconciliations.flow', 'subcategory']);
    expect(list('listCompanies').expansions).toEqual(['subscriptions']);
  });

  it('documents the required vat_number of the counterpart search and the request bodies', () => {
    expect(operations.get('searchCounterparts')!.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'vat_number', in: 'query', required: true })]),
    );
    const body = (id: string) => (operations.get(id) as unknown as { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }).requestBody;
    expect(body('updateDocument')?.content['application/json'].schema.$ref).toBe('#/components/schemas/DocumentUpdatePayload');
    expect(body('updateFlow')?.content['application/json'].schema.$ref).toBe('#/components/schemas/FlowUpdatePayload');
    expect(body('createReconciliation')?.content['application/json'].schema.$ref).toBe('#/components/schemas/ReconciliationCreatePayload');
    expect(body('createBulkPayment')?.content['application/json'].schema.$ref).toBe('#/components/schemas/BulkPaymentCreatePayload');
    const create = document.components.schemas.ReconciliationCreatePayload as { required?: string[] };
    expect(create.required?.sort()).toEqual(['flow_id', 'transaction_id']);
  });
});
