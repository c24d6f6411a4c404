import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { DocumentUpdatedEventDto } from '../documents/document-updated-event.dto.js';

export const API_VERSION = '1.2.0';
export const API_HOSTS = {
  development: 'https://api.sandbox.flusso.example',
  production: 'https://api.flusso.example',
} as const;
export const BASE_PATH = '/api/v1';
export const SECURITY_SCHEME = 'authorization';

const TAGS: Array<[string, string]> = [
  ['Companies', 'The companies an integrator has been granted; every other call acts inside one of them.'],
  ['Accounts', 'Bank accounts of a company, with their balances.'],
  ['Categories', 'Categories used to classify documents and transactions.'],
  ['Counterparts', 'Customers and suppliers of a company, and a lookup of Italian companies by VAT number.'],
  ['Documents', 'Issued and received documents: invoices, credit notes, bills and more.'],
  ['Flows', 'The payments expected for a document (instalments), paid or to pay.'],
  ['Reconciliations', 'Links between a flow and the bank transaction that pays it.'],
  ['Transactions', 'Bank movements of the company\'s accounts.'],
];

/** The OpenAPI document, generated from the controllers and DTOs: nothing here describes an operation by hand. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Flusso Integration API')
    .setVersion(API_VERSION)
    .setDescription(
      'REST API, JSON over HTTPS only, for third-party systems that read and write the data of Italian companies on Flusso: ' +
        'documents and e-invoices sent to the SDI, payment flows, bank accounts, categories, counterparts, bank transactions ' +
        'and reconciliations. Every call carries an API key as a bearer token. The API is in beta (1.0.0 beta, now 1.2).',
    )
    .setContact('Flusso developer support', 'https://developers.flusso.example', 'developers@flusso.example')
    .addServer(API_HOSTS.development + BASE_PATH, 'Development (sandbox)')
    .addServer(API_HOSTS.production + BASE_PATH, 'Production')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key: `Authorization: Bearer fls_dev_…`.' },
      SECURITY_SCHEME,
    )
    .addSecurityRequirements(SECURITY_SCHEME);
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    ignoreGlobalPrefix: true,
    extraModels: [DocumentUpdatedEventDto],
  });
  document.openapi = '3.0.3';
  // OpenAPI 3.0 has no `webhooks`; `x-webhooks` is the extension readers of 3.0 documents (Redoc among them) know.
  (document as OpenAPIObject & { 'x-webhooks': unknown })['x-webhooks'] = {
    documentUpdated: {
      post: {
        summary: 'document.updated',
        description:
          'Sent to the integrator\'s endpoint when a document or its flows change. Answer any 2xx to confirm receipt; other answers are retried with backoff.',
        operationId: 'documentUpdated',
        tags: ['Webhooks'],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: getSchemaPath(DocumentUpdatedEventDto) } } } },
        responses: { '2XX': { description: 'Received.' } },
      },
    },
  };
  return document;
}
