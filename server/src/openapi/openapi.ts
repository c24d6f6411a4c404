import type { INestApplication, Type } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, type OperationObject, type ResponseObject, SwaggerModule } from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-error.js';
import { API_VERSION, BASE_PATH } from '../config/api-version.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { addErrorExample, errorExample } from '../common/errors/api-errors.decorator.js';
import { DocumentDeletedEventDto } from '../documents/document-deleted-event.dto.js';
import { F24EventDto } from '../f24/f24.dto.js';
import { DocumentCreatedEventDto, ReconciliationEventDto, TransactionCreatedEventDto } from '../events/event-bodies.dto.js';
import { WebhookTestEventDto } from '../webhooks/webhook-endpoint.dto.js';
import { documentIdempotency } from '../common/idempotency/idempotency.openapi.js';
import { DocumentUpdatedEventDto } from '../documents/document-updated-event.dto.js';
import { invoiceJsonSchemas } from '../invoices/fatturapa/index.js';
import { toOpenApi31 } from './openapi-31.js';
import { documentResponseHeaders } from './response-headers.js';
import { documentExamples } from './examples.js';
import { documentLongPathSegments } from '../common/http/path-params.js';
import { documentQueryRefusals } from '../common/validation/query-params.openapi.js';
import { documentRequestBodies } from '../common/validation/request-bodies.openapi.js';
import { SIGNED_FILE_TYPES } from '../common/http/xml-body.js';

export const SECURITY_SCHEME = 'authorization';

const TAGS: Array<[string, string]> = [
  ['Companies', 'The companies an integrator has been granted; every other call acts inside one of them.'],
  ['Accounts', 'Bank accounts of a company, with their balances.'],
  ['Categories', 'Categories used to classify documents and transactions.'],
  ['Counterparts', 'Customers and suppliers of a company, and a lookup of Italian companies by VAT number.'],
  ['Products', 'Products and services a company sells, with the defaults an invoice line takes from them.'],
  ['Sectionals', 'Numbering series (sezionali): each numbers the documents of one year, gap-free.'],
  ['Documents', 'Issued and received documents: invoices, credit notes, bills and more.'],
  ['Flows', 'The payments expected for a document (instalments), paid or to pay.'],
  ['Reconciliations', 'Links between a flow and the bank transaction that pays it.'],
  ['Transactions', "Bank movements of the company's accounts."],
  ['Payments', 'Bulk payment requests: batches of SEPA credit transfers, each offered as an ISO 20022 pain.001 file for the bank.'],
  ['Sandbox', "Development environment only: bank transactions and suppliers' e-invoices on demand, to test an integration without a bank or the SDI."],
  ['Events', 'What changed in a company, in commit order, kept as long as webhook deliveries can replay it: the same events webhooks deliver.'],
  ['Request logs', "The integrator's failed requests of the last 7 days, to find one by its X-Request-Id and see how it ended."],
  ['API keys', "The integrator's API keys: list them, create restricted keys, roll and revoke them. No key gives more than it has."],
  [
    'Webhooks',
    'Endpoints that receive the event types they choose (the Events guide lists them), signed as Standard Webhooks, the deliveries made to them, and test events.',
  ],
];

const RECEIPT = 'Answer any 2xx to confirm receipt; other answers are retried with backoff.';

/** Every webhook the document declares, in the order the reference lists them: its event type, body and when it is sent. */
const WEBHOOKS: Array<{ name: string; type: string; schema: Type; description: string }> = [
  {
    name: 'documentCreated',
    type: 'document.created',
    schema: DocumentCreatedEventDto,
    description: `Sent when a document is created: an invoice through createInvoice, a supplier's e-invoice received, a document read from an F24. ${RECEIPT}`,
  },
  {
    name: 'documentUpdated',
    type: 'document.updated',
    schema: DocumentUpdatedEventDto,
    description: `Sent to the integrator's endpoint when a document or its flows change. ${RECEIPT}`,
  },
  {
    name: 'documentDeleted',
    type: 'document.deleted',
    schema: DocumentDeletedEventDto,
    description: `Sent to the integrator's endpoint when a document is deleted, with its flows and their reconciliations. ${RECEIPT}`,
  },
  {
    name: 'transactionCreated',
    type: 'transaction.created',
    schema: TransactionCreatedEventDto,
    description: `Sent for each bank transaction imported (a bank's file, or the sandbox's createSandboxTransactions). Needs \`transactions:read\`. ${RECEIPT}`,
  },
  {
    name: 'reconciliationCreated',
    type: 'reconciliation.created',
    schema: ReconciliationEventDto,
    description: `Sent when a flow is reconciled with a bank transaction, through createReconciliation or matched by its \`reconciliation_identifier\` on import. Needs \`reconciliations:read\`. ${RECEIPT}`,
  },
  {
    name: 'reconciliationDeleted',
    type: 'reconciliation.deleted',
    schema: ReconciliationEventDto,
    description: `Sent when a reconciliation is deleted, with the reconciliation as it was. Needs \`reconciliations:read\`. ${RECEIPT}`,
  },
  {
    name: 'f24Processed',
    type: 'f24.processed',
    schema: F24EventDto,
    description: `Sent when an F24 sent to createF24OcrRequest has been read and its document made: the request with what was read (\`form\`) and \`document_id\`. Needs \`payments:f24:read\`. ${RECEIPT}`,
  },
  {
    name: 'f24Failed',
    type: 'f24.failed',
    schema: F24EventDto,
    description: `Sent when an F24 sent to createF24OcrRequest could not be turned into a document: the request with \`failure\` (reason and detail). Needs \`payments:f24:read\`. ${RECEIPT}`,
  },
  {
    name: 'webhookTest',
    type: 'webhook.test',
    schema: WebhookTestEventDto,
    description:
      'Sent to one endpoint when testWebhookEndpoint asks for it, and to no other: signed and retried as every event, about no company (`company_id` is null). No endpoint chooses it in `enabled_events`. Answer any 2xx to confirm receipt.',
  },
];

/** The sentence that tells the reader of an operation which permission it needs, after its `x-permission`. */
export function permissionSentence(permission: string): string {
  const including = permission.endsWith(':read') ? `\`${permission.replace(/:read$/, ':write')}\` and \`*\` include it` : '`*` includes it';
  return `Needs the \`${permission}\` permission (${including}); a key without it is answered 403 \`insufficient_permission\`.`;
}

/**
 * Adds the permission sentence to the description of every operation that declares `x-permission`, and makes its 403
 * `insufficient_permission` example the answer a key without that permission gets.
 */
function describePermissions(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Array<OperationObject & { 'x-permission'?: string }>) {
      const permission = operation?.['x-permission'];
      if (!permission) continue;
      operation.description = [operation.description, permissionSentence(permission)].filter(Boolean).join('\n\n');
      const forbidden = operation.responses['403'] as ResponseObject | undefined;
      if (forbidden)
        addErrorExample(forbidden, 'insufficient_permission', errorExample('insufficient_permission', ApiError.insufficientPermission(permission).items[0]));
    }
  }
}

/**
 * The OpenAPI document, generated from the controllers and DTOs: nothing here describes an operation by hand. Its
 * `servers` are the hosts the portal shows (FLUSSO_HOST_DEVELOPMENT, FLUSSO_HOST_PRODUCTION), so the document the API
 * serves and the portal's copy name the same ones.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const { publicHosts } = app.get<AppConfig>(APP_CONFIG);
  const builder = new DocumentBuilder()
    .setTitle('Flusso Integration API')
    .setVersion(API_VERSION)
    .setDescription(
      'REST API, JSON over HTTPS only, for third-party systems that read and write the data of Italian companies on Flusso: ' +
        'documents and e-invoices sent to the SDI, payment flows, bank accounts, categories, counterparts, bank transactions ' +
        'and reconciliations. Every call carries an API key as a bearer token. The API is in beta (1.0.0 beta, now 1.2).',
    )
    .setContact('Flusso developer support', 'https://developers.flusso.example', 'developers@flusso.example')
    // The terms the footer's legal column links: what an integrator agrees to by calling the API.
    .setLicense('Flusso terms of service', 'https://www.flusso.example/termini')
    .addServer(publicHosts.development + BASE_PATH, 'Development (sandbox)')
    .addServer(publicHosts.production + BASE_PATH, 'Production')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key: `Authorization: Bearer fls_dev_…`.' }, SECURITY_SCHEME)
    .addSecurityRequirements(SECURITY_SCHEME);
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    ignoreGlobalPrefix: true,
    extraModels: WEBHOOKS.map(({ schema }) => schema),
  });
  // The JSON invoice, every member documented, generated from the one FatturaPA model.
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...(invoiceJsonSchemas() as NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>) },
  };
  bodiesByMediaType(document);
  describePermissions(document);
  documentIdempotency(document);
  documentLongPathSegments(document);
  documentQueryRefusals(document);
  documentRequestBodies(document);
  documentResponseHeaders(document);
  const webhooks = Object.fromEntries(
    WEBHOOKS.map(({ name, type, schema, description }) => [
      name,
      {
        post: {
          summary: type,
          description,
          operationId: name,
          tags: ['Webhooks'],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: getSchemaPath(schema) } } } },
          responses: { '2XX': { description: 'Received.' } },
        },
      },
    ]),
  );
  documentExamples(document, webhooks);
  toOpenApi31(document as unknown as Record<string, unknown>, webhooks);
  return document;
}

/**
 * A request body that takes several media types carries examples per type, named after the type's subtype (`xml`
 * for application/xml, `json` for application/json, or beginning so: `json_simplified`): Nest copies every example to every type, this keeps each under
 * its own. Nest also gives every type the one schema, the JSON body's: an XML body is the text of an XML file, so its
 * schema says a string of that media type (a generated client would otherwise type, and send, the XML as JSON).
 */
function bodiesByMediaType(document: OpenAPIObject): void {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      const content = (
        operation as { requestBody?: { content?: Record<string, { schema?: { $ref?: string; [key: string]: unknown }; examples?: Record<string, unknown> }> } }
      ).requestBody?.content;
      if (!content || Object.keys(content).length < 2) continue;
      for (const [type, media] of Object.entries(content)) {
        const subtype = type.split('/')[1];
        // Named `xml`, `json`, or after them (`xml_simplified`): each goes to its own type.
        const own = ([name]: [string, unknown]) => name === subtype || name.startsWith(`${subtype}_`);
        if (media.examples && subtype in media.examples) media.examples = Object.fromEntries(Object.entries(media.examples).filter(own));
        else if (media.examples) delete media.examples;
        if (subtype === 'xml' || subtype.endsWith('+xml')) media.schema = xmlText(type, content['application/json']?.schema?.$ref);
        if (SIGNED_FILE_TYPES.includes(type)) {
          // A signed file is binary and signed by the sender: no example can stand for one.
          media.schema = { type: 'string', contentMediaType: type, description: SIGNED_FILE_DESCRIPTION };
          delete media.examples;
        }
      }
    }
  }
}

const SIGNED_FILE_DESCRIPTION =
  'A signed invoice file: the CAdES envelope (.xml.p7m) carrying the XML, as produced by the signing software, in DER or in base64 (line breaks allowed).';

/** The schema of an XML body: text of its media type, the XML form of the JSON body's schema. */
function xmlText(type: string, jsonRef: string | undefined): Record<string, unknown> {
  const twin = jsonRef ? ` It holds what \`${jsonRef.split('/').pop()}\` describes, under the XML element names given in each member's description.` : '';
  return { type: 'string', contentMediaType: type, description: `The XML document, sent as it is (UTF-8 text).${twin}` };
}
