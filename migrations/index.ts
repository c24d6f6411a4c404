import { InitialSchema1732280000000 } from './1732280000000-initial-schema.js';
import { DocumentVersion1795431090864 } from './1795431090864-document-version.js';
import { CategoriesInUse1795431718196 } from './1795431718196-categories-in-use.js';
import { ReconciliationAmounts1795431734858 } from './1795431734858-reconciliation-amounts.js';
import { CounterpartsWritable1795432671468 } from './1795432671468-counterparts-writable.js';
import { Webhooks1795433000000 } from './1795433000000-webhooks.js';
import { IdempotencyKeys1795434000000 } from './1795434000000-idempotency-keys.js';
import { PaymentBatches1795435000000 } from './1795435000000-payment-batches.js';
import { Invoices1795436000000 } from './1795436000000-invoices.js';
import { KeyPermissions1795437500000 } from './1795437500000-key-permissions.js';
import { Products1795437600000 } from './1795437600000-products.js';
import { Sectionals1795437700000 } from './1795437700000-sectionals.js';
import { InvoiceShares1795449000000 } from './1795449000000-invoice-shares.js';
import { DocumentSectionals1795450000000 } from './1795450000000-document-sectionals.js';
import { DocumentFormat1795451000000 } from './1795451000000-document-format.js';
import { SdiSandboxNotices1795452000000 } from './1795452000000-sdi-sandbox-notices.js';
import { DeliveryWaiting1795453000000 } from './1795453000000-delivery-waiting.js';
import { WebhookEndpointPermissions1795454600000 } from './1795454600000-webhook-endpoint-permissions.js';
import { SignedInvoiceFiles1795454700000 } from './1795454700000-signed-invoice-files.js';
import { DeliveryClaims1795456000000 } from './1795456000000-delivery-claims.js';
import { ReceivedInvoices1795457300000 } from './1795457300000-received-invoices.js';
import { CounterpartVatPrefix1795458000000 } from './1795458000000-counterpart-vat-prefix.js';
import { F24Requests1795458000000 } from './1795458000000-f24-requests.js';
import { FanOutFromOutbox1795461200000 } from './1795461200000-fan-out-from-outbox.js';
import { ApiKeyLifecycle1795462419000 } from './1795462419000-api-key-lifecycle.js';
import { EventsApi1795462500000 } from './1795462500000-events-api.js';
import { WebhookEnabledEvents1795462700000 } from './1795462700000-webhook-enabled-events.js';
import { InvoiceSignatures1795463100000 } from './1795463100000-invoice-signatures.js';
import { RequestLogs1795463190000 } from './1795463190000-request-logs.js';
import { CompanyTaxNumber1795463200000 } from './1795463200000-company-tax-number.js';
import { DocumentsAwaitingSdi1795463300000 } from './1795463300000-documents-awaiting-sdi.js';

/** Every migration, in order. Listed explicitly so compiled and test runs load the same classes. */
export const migrations = [
  InitialSchema1732280000000,
  DocumentVersion1795431090864,
  CategoriesInUse1795431718196,
  ReconciliationAmounts1795431734858,
  CounterpartsWritable1795432671468,
  Webhooks1795433000000,
  IdempotencyKeys1795434000000,
  PaymentBatches1795435000000,
  Invoices1795436000000,
  KeyPermissions1795437500000,
  Products1795437600000,
  Sectionals1795437700000,
  InvoiceShares1795449000000,
  DocumentSectionals1795450000000,
  DocumentFormat1795451000000,
  SdiSandboxNotices1795452000000,
  DeliveryWaiting1795453000000,
  WebhookEndpointPermissions1795454600000,
  SignedInvoiceFiles1795454700000,
  DeliveryClaims1795456000000,
  ReceivedInvoices1795457300000,
  CounterpartVatPrefix1795458000000,
  F24Requests1795458000000,
  FanOutFromOutbox1795461200000,
  ApiKeyLifecycle1795462419000,
  EventsApi1795462500000,
  WebhookEnabledEvents1795462700000,
  InvoiceSignatures1795463100000,
  RequestLogs1795463190000,
  CompanyTaxNumber1795463200000,
  DocumentsAwaitingSdi1795463300000,
];
