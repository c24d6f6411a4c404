import { DataSource } from 'typeorm';
import { Account } from './accounts/account.entity.js';
import { Category } from './categories/category.entity.js';
import { Company } from './companies/company.entity.js';
import { Subscription } from './companies/subscription.entity.js';
import { Counterpart } from './counterparts/counterpart.entity.js';
import { RegistryCompany } from './counterparts/registry-company.entity.js';
import { Document } from './documents/document.entity.js';
import { Flow } from './flows/flow.entity.js';
import { ApiKey } from './common/auth/api-key.entity.js';
import { CompanyGrant } from './integrators/company-grant.entity.js';
import { Integrator } from './integrators/integrator.entity.js';
import { Product } from './products/product.entity.js';
import { Reconciliation } from './transactions/reconciliation.entity.js';
import { Transaction } from './transactions/transaction.entity.js';
import { dataSourceOptions } from './common/database/data-source.js';
import { DomainEvent } from './common/events/event.entity.js';
import { Delivery } from './deliveries/delivery.entity.js';
import { DeliveryAttempt } from './deliveries/delivery-attempt.entity.js';
import { WebhookEndpoint } from './webhooks/webhook-endpoint.entity.js';
import { Sectional } from './sectionals/sectional.entity.js';
import { PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow } from './payments/payment-batch.entity.js';
import { StoredInvoice } from './invoices/invoice.entity.js';
import { InvoiceShare } from './shares/share.entity.js';
import { RequestLog } from './request-logs/request-log.entity.js';

/**
 * Every entity, for the data sources built outside Nest: the CLI (its migrations, imports and the demo), the tests and
 * the benchmarks; and for the worker, which runs documents' and invoices' services without their modules. In the API
 * each module registers its own (TypeOrmModule.forFeature); entities.spec.ts keeps the two in step.
 */
export const entities = [
  Integrator,
  ApiKey,
  CompanyGrant,
  Company,
  Subscription,
  Account,
  Category,
  Counterpart,
  RegistryCompany,
  Document,
  Flow,
  Product,
  Transaction,
  Reconciliation,
  DomainEvent,
  WebhookEndpoint,
  Delivery,
  DeliveryAttempt,
  PaymentBatch,
  PaymentBatchPayment,
  PaymentBatchPaymentFlow,
  StoredInvoice,
  Sectional,
  InvoiceShare,
  RequestLog,
];

/** A data source with every entity, not yet initialised (the CLI's, the tests', the benchmarks'). */
export function createDataSource(databaseUrl: string): DataSource {
  return new DataSource({ ...dataSourceOptions(databaseUrl), entities });
}
