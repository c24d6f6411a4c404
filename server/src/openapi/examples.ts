/**
 * The examples of the OpenAPI document: one company's books in March 2026, told once, so every request and answer
 * agrees with every other and with the API's rules. Rossi Forniture S.r.l. issues the reference's example e-invoice
 * (FV-2026/0042, 1500.00 + 330.00 VAT) to Bianchi Costruzioni S.p.A., is paid 1830.00 by bank transfer on 28 March,
 * reconciles it, and pays the first instalment of a supplier's invoice with a SEPA payment batch. Each answer shows the
 * members the operation can expand as it expands them (its summary says with which `expand`), and null otherwise.
 */
import type { AccountDto } from '../accounts/account.dto.js';
import type { CategoryDto, SubcategoryDto } from '../categories/category.dto.js';
import type { CompanyDto } from '../companies/company.dto.js';
import type { CounterpartDto, CounterpartSearchResultDto } from '../counterparts/counterpart.dto.js';
import type { DocumentDto } from '../documents/document.dto.js';
import type { FlowDto } from '../flows/flow.dto.js';
import { invoiceToXml } from '../invoices/fatturapa/index.js';
import { EXAMPLE_SELLER_VAT, exampleInvoice } from '../invoices/invoice-example.js';
import type { PaymentBatchDto } from '../payments/payment-batch.dto.js';
import { writePain001 } from '../payments/sepa/pain001.js';
import type { ProductDto } from '../products/product.dto.js';
import type { ReconciliationDto } from '../transactions/reconciliation.dto.js';
import type { SectionalDto } from '../sectionals/sectional.dto.js';
import { defaultTexts } from '../shares/courtesy-copy.js';
import type { InvoiceShareDto } from '../shares/share.dto.js';
import type { TransactionDto } from '../transactions/transaction.dto.js';
import type { WebhookDeliveryDto, WebhookEndpointDto, WebhookEndpointWithSecretDto } from '../webhooks/webhook-endpoint.dto.js';
import type { F24RequestDto } from '../f24/f24.dto.js';
import type { ApiKeyDto, ApiKeyWithSecretDto } from '../api-keys/api-key.dto.js';
import type { RequestLogDto } from '../request-logs/request-log.dto.js';

/** An answer's example, and the `expand` it was asked with (named in its summary). */
export interface ResponseExample {
  value: unknown;
  expand?: readonly string[];
}

const money = (amount: string) => ({ amount, currency: 'EUR' });
const page = { cursor: null, size: 25 };
const list = (data: unknown[]) => ({ data, page });

const ID = {
  company: '3f0c5a2e-8a4b-4d6e-9b1f-2c7d8e9fa012',
  account: '6a1d0f1e-3b7c-4e45-a1b3-7f9d2c4e5a61',
  sales: '0b8e7f4c-52d1-4f3a-9c55-1d2e3f4a5b6c',
  buildingMaterials: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  purchases: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  customer: '9d4b2c1a-7e6f-4a3b-8c2d-1e0f9a8b7c6d',
  supplier: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8',
  invoice: '5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c',
  invoiceFlow: 'c2a9e1d4-5b6f-4c7d-8e9f-0a1b2c3d4e5f',
  transfer: 'a7b6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c2d',
  reconciliation: 'e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b',
  bill: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  billFirstFlow: 'd4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70',
  billSecondFlow: 'f0e1d2c3-b4a5-4968-8776-655443322110',
  quote: '2b3c4d5e-6f70-4a8b-9cad-bef012345678',
  product: '2c4e6a8b-0d1f-4a3b-9c5d-7e9f1a3b5c7d',
  sectional: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
  nextYearSectional: '6d5c4b3a-2918-4716-a5b4-c3d2e1f0a9b8',
  endpoint: '8a1f0c52-3d4e-4b6f-9a7b-1c2d3e4f5a6b',
  event: '7e6d5c4b-3a29-4817-b6a5-948372615040',
  deletedEvent: '0f1e2d3c-4b5a-4697-8877-665544332211',
  delivery: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  replay: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  batch: '3f2e1d0c-9b8a-4765-8432-10fedcba9876',
  batchPayment: '0c9b8a7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d',
  apiKey: '5b0e7c1d-2a3f-4e6b-9c8d-7f1a2b3c4d5e',
  rolledApiKey: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  share: '4b0f7c52-9d3e-4c1a-8f25-6d2e1a7b9c30',
  f24Request: '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  f24Document: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
  f24Event: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f2a3b4c5d',
  testDelivery: '1d2c3b4a-5f6e-4d7c-9b8a-7f6e5d4c3b2a',
  testEvent: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6e',
  createdEvent: '5c4b3a29-1807-4f6e-9d5c-4b3a29180706',
  transactionEvent: '6d5c4b3a-2918-4070-8e6d-5c4b3a291807',
  reconciliationEvent: '7e6d5c4b-3a29-4181-9f7e-6d5c4b3a2918',
  reconciliationDeletedEvent: '8f7e6d5c-4b3a-4292-8a8f-7e6d5c4b3a29',
} as const;

const invoice = exampleInvoice();
const invoiceFileName = `IT${EXAMPLE_SELLER_VAT}_00001.xml`;

const subscription = { created_at: '2025-11-03T10:00:00.000Z', status: 'ACTIVE' as const };
const company: CompanyDto = {
  id: ID.company,
  name: 'Rossi Forniture S.r.l.',
  vat_number: `IT${EXAMPLE_SELLER_VAT}`,
  country: 'IT',
  fiscal_regime: 'RF01',
  subscriptions: [subscription],
};

const account: AccountDto = {
  id: ID.account,
  nickname: 'Conto corrente Intesa',
  currency: 'EUR',
  current_balance: money('48210.35'),
  available_balance: money('46770.35'),
  credit_limit: money('5000.00'),
  balance_date: '2026-03-31T18:00:00.000Z',
  created_at: '2025-11-03T10:05:00.000Z',
};

const sales: CategoryDto = { id: ID.sales, name: 'Vendite' };
const purchases: CategoryDto = { id: ID.purchases, name: 'Acquisti di materiali' };
const buildingMaterials: SubcategoryDto = { id: ID.buildingMaterials, name: 'Materiali edili', category_id: ID.sales };
/** A subcategory inside a document or a transaction: id and name. */
const buildingMaterialsRef: CategoryDto = { id: buildingMaterials.id, name: buildingMaterials.name };

/** The buyer of the example invoice, as Flusso stored it from the file (its codice destinatario included). */
const customer: CounterpartDto = {
  id: ID.customer,
  company_name: 'Bianchi Costruzioni S.p.A.',
  address: 'Corso Francia 48',
  city: 'Torino',
  postal_code: '10138',
  province_code: 'TO',
  country: 'IT',
  tax_number: '09876543217',
  vat_number: 'IT09876543217',
  destination_code: 'KRRH6B9',
  pec_address: null,
};

const supplier: CounterpartDto = {
  id: ID.supplier,
  company_name: 'Cementeria Adriatica S.r.l.',
  address: 'Via del Porto 7',
  city: 'Ravenna',
  postal_code: '48122',
  province_code: 'RA',
  country: 'IT',
  tax_number: '12345678903',
  vat_number: 'IT12345678903',
  destination_code: 'W7YVJK9',
  pec_address: 'amministrazione@pec.cementeriaadriatica.it',
};

const searchResult: CounterpartSearchResultDto = {
  company_name: customer.company_name,
  address: customer.address,
  city: customer.city,
  postal_code: customer.postal_code,
  province_code: customer.province_code,
  country: customer.country,
  tax_number: customer.tax_number,
  vat_number: customer.vat_number,
};

// The example invoice's one instalment: 1830.00 by transfer, due 1 April, paid on 28 March.
const invoiceFlowToPay: FlowDto = {
  id: ID.invoiceFlow,
  document_id: ID.invoice,
  amount: money('1830.00'),
  paid_amount: money('0.00'),
  payment_status: 'TO_PAY',
  payment_method: 'TRANSFER',
  expected_payment_date: '2026-04-01',
  payment_date: null,
  created_at: '2026-03-02T10:15:00.000Z',
};
const invoiceFlowPaid: FlowDto = { ...invoiceFlowToPay, paid_amount: money('1830.00'), payment_status: 'PAID', payment_date: '2026-03-28' };

const transfer: TransactionDto = {
  id: ID.transfer,
  account_id: ID.account,
  type: 'CREDIT',
  amount: money('1830.00'),
  booking_date_time: '2026-03-28T07:41:00.000Z',
  date: '2026-03-28',
  value_date: '2026-03-28',
  description: 'BONIFICO SEPA DA BIANCHI COSTRUZIONI SPA CAUS. SALDO FATT. FV-2026/0042 DEL 02/03/2026',
  clean_description: 'Bonifico da Bianchi Costruzioni',
  counterpart_name: 'Bianchi Costruzioni S.p.A.',
  created_at: '2026-03-28T08:00:00.000Z',
  category_id: null,
  category: null,
  subcategory_id: null,
  subcategory: null,
  reconciliations: null,
};

const reconciliation: ReconciliationDto = {
  id: ID.reconciliation,
  flow_id: ID.invoiceFlow,
  transaction_id: ID.transfer,
  amount: money('1830.00'),
  flow: null,
  transaction: null,
  created_at: '2026-03-28T08:05:12.000Z',
};

/** The transfer once classified (updateTransaction's example, after the reconciliation). */
const transferNow: TransactionDto = { ...transfer, category_id: ID.sales, subcategory_id: ID.buildingMaterials };
/** The reconciliation as reads show it now, flow and transaction expanded. */
const reconciliationNow: ReconciliationDto = { ...reconciliation, flow: invoiceFlowPaid, transaction: transferNow };

/** The classified transfer, every member expanded. */
const transferClassified: TransactionDto = {
  ...transfer,
  category_id: ID.sales,
  category: sales,
  subcategory_id: ID.buildingMaterials,
  subcategory: buildingMaterialsRef,
  reconciliations: [{ ...reconciliation, flow: invoiceFlowPaid }],
};

/** The example invoice as createInvoice leaves it: a DRAFT, version 1, its flow to pay, not classified yet. */
const invoiceDraft: DocumentDto = {
  id: ID.invoice,
  number: 'FV-2026/0042',
  type: 'INVOICE',
  status: 'DRAFT',
  format: 'FPR12',
  is_e_invoice: true,
  gross_amount: money('1830.00'),
  vat_amount: money('330.00'),
  flows: [invoiceFlowToPay],
  category_id: null,
  category: null,
  subcategory_id: null,
  subcategory: null,
  counterpart_id: ID.customer,
  counterpart: customer,
  created_at: '2026-03-02T10:15:00.000Z',
  creation_date: '2026-03-02',
  delivery_date: null,
  delivery_status: null,
  direction: 'ISSUED',
  file_name: invoiceFileName,
  notes: null,
  source_id: null,
  sectional_id: null,
  sectional: null,
  progressive: null,
  updated_at: '2026-03-02T10:15:00.000Z',
  version: 1,
};

/** Issued (version 2), then SENT (3) and DELIVERED (4) by the SDI, classified (5), paid by the reconciled transfer (6). */
const invoiceIssued: DocumentDto = { ...invoiceDraft, status: 'CREATED', updated_at: '2026-03-02T10:20:00.000Z', version: 2 };
const invoicePaid: DocumentDto = {
  ...invoiceDraft,
  status: 'DELIVERED',
  flows: [invoiceFlowPaid],
  category_id: ID.sales,
  category: sales,
  subcategory_id: ID.buildingMaterials,
  subcategory: buildingMaterialsRef,
  delivery_date: '2026-03-02T11:02:00.000Z',
  delivery_status: 'RC',
  updated_at: '2026-03-28T08:05:12.000Z',
  version: 6,
};
/** With a note (updateDocument's example): version 7. */
const invoiceNoted: DocumentDto = { ...invoicePaid, notes: 'Consegna in cantiere, Corso Francia 48', updated_at: '2026-03-30T09:12:40.000Z', version: 7 };

// A supplier's invoice of 2440.00, due at once in its file; the company split it in two instalments of 1220.00: it
// lowered the first (updateFlow's example) and added the second (createFlow's).
const billFirstFlow: FlowDto = {
  id: ID.billFirstFlow,
  document_id: ID.bill,
  amount: money('1220.00'),
  paid_amount: money('0.00'),
  payment_status: 'TO_PAY',
  payment_method: 'TRANSFER',
  expected_payment_date: '2026-04-15',
  payment_date: null,
  created_at: '2026-03-05T14:20:00.000Z',
};
const billSecondFlow: FlowDto = {
  ...billFirstFlow,
  id: ID.billSecondFlow,
  expected_payment_date: '2026-05-15',
  created_at: '2026-03-06T09:00:00.000Z',
};
const bill: DocumentDto = {
  id: ID.bill,
  number: '118/2026',
  type: 'INVOICE',
  status: 'DELIVERED',
  format: 'FPR12',
  is_e_invoice: true,
  gross_amount: money('2440.00'),
  vat_amount: money('440.00'),
  flows: [billFirstFlow, billSecondFlow],
  category_id: ID.purchases,
  category: purchases,
  subcategory_id: null,
  subcategory: null,
  counterpart_id: ID.supplier,
  counterpart: null,
  created_at: '2026-03-05T14:20:00.000Z',
  creation_date: '2026-03-04',
  delivery_date: '2026-03-05T14:18:00.000Z',
  delivery_status: 'RC',
  direction: 'RECEIVED',
  file_name: 'IT12345678903_0A7F2.xml',
  notes: null,
  source_id: null,
  sectional_id: null,
  sectional: null,
  progressive: null,
  updated_at: '2026-03-06T09:00:00.000Z',
  version: 3,
};

/** A quote (no e-invoice, so it can be deleted), as its document.deleted event carries it. */
const quote: DocumentDto = {
  id: ID.quote,
  number: 'PR-2026/0007',
  type: 'QUOTE',
  status: 'CREATED',
  format: 'FPR12',
  is_e_invoice: false,
  gross_amount: money('610.00'),
  vat_amount: money('110.00'),
  flows: [],
  category_id: null,
  category: null,
  subcategory_id: null,
  subcategory: null,
  counterpart_id: ID.customer,
  counterpart: customer,
  created_at: '2026-03-10T16:00:00.000Z',
  creation_date: '2026-03-10',
  delivery_date: null,
  delivery_status: null,
  direction: 'ISSUED',
  file_name: null,
  notes: 'Preventivo per la fornitura di aprile',
  source_id: 'ERP-PR-0007',
  sectional_id: null,
  sectional: null,
  progressive: null,
  updated_at: '2026-03-31T11:00:00.000Z',
  version: 2,
};

/** A document as a list or a read without `expand` of some members shows it: those members null. */
function unexpanded(document: DocumentDto, keep: readonly string[]): DocumentDto {
  return {
    ...document,
    flows: keep.includes('flows') ? document.flows : null,
    category: keep.includes('category') ? document.category : null,
    subcategory: keep.includes('subcategory') ? document.subcategory : null,
    counterpart: keep.includes('counterpart') ? document.counterpart : null,
  };
}

const product: ProductDto = {
  id: ID.product,
  code: 'CEM-325-25',
  description: 'Cemento Portland 32,5 R, sacco da 25 kg',
  unit_price: money('9.00'),
  unit_of_measure: 'SACCO',
  vat_percentage: '22.00',
  tax_exemption: null,
  created_at: '2026-01-12T08:30:00.000Z',
  updated_at: '2026-01-12T08:30:00.000Z',
};

const sectional: SectionalDto = {
  id: ID.sectional,
  year: 2026,
  prefix: 'FV-2026/',
  suffix: '',
  minimum_digits: 4,
  last_progressive: 42,
  next_number: 'FV-2026/0043',
  created_at: '2026-01-02T08:30:00.000Z',
  updated_at: '2026-03-02T10:15:00.000Z',
};
const nextYearSectional: SectionalDto = {
  id: ID.nextYearSectional,
  year: 2027,
  prefix: 'FV-2027/',
  suffix: '',
  minimum_digits: 4,
  last_progressive: 0,
  next_number: 'FV-2027/0001',
  created_at: '2026-03-31T15:00:00.000Z',
  updated_at: '2026-03-31T15:00:00.000Z',
};

const endpoint: WebhookEndpointDto = {
  id: ID.endpoint,
  url: 'https://erp.rossiforniture.it/webhooks/flusso',
  description: 'Gestionale, ambiente di produzione',
  enabled: true,
  permissions: ['documents:read', 'webhooks:write'],
  enabled_events: ['document.updated', 'document.deleted'],
  disabled_reason: null,
  disabled_at: null,
  failing_since: null,
  created_at: '2026-03-01T09:30:00.000Z',
  updated_at: '2026-03-01T09:30:00.000Z',
};
const endpointWithSecret: WebhookEndpointWithSecretDto = { ...endpoint, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };

/** The invoicing service's restricted key, created on 2 March and rolled on 31 March with a day's overlap. */
const apiKey: ApiKeyDto = {
  id: ID.apiKey,
  name: 'invoicing service',
  prefix: 'fls_prod_Ab3dE6gH',
  permissions: ['documents:write', 'transactions:read'],
  status: 'ACTIVE',
  created_at: '2026-03-02T09:30:00.000Z',
  last_used_at: '2026-03-31T16:58:00.000Z',
  expires_at: null,
  revoked_at: null,
};
/** A failed request of the request log: a document asked for in a company where it does not exist. */
const requestLog: RequestLogDto = {
  id: '6b1f0c2e-5a4d-4e7b-9c3a-1d2e3f4a5b6c',
  created_at: '2026-03-31T16:58:12.345Z',
  method: 'GET',
  route: '/companies/{company_id}/documents/{id}',
  path: `/api/v1/companies/${ID.company}/documents/0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a`,
  status: 404,
  error_codes: ['not_found'],
  request_id: '7d3c2a10-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  key_prefix: apiKey.prefix,
  company_id: ID.company,
  duration_ms: 4.2,
};
const apiKeyWithSecret: ApiKeyWithSecretDto = { ...apiKey, last_used_at: null, secret: 'fls_prod_Ab3dE6gHj2K4m5N7p8Q9r1S3t4V6w7X9' };
const rolledApiKey: ApiKeyWithSecretDto = {
  ...apiKey,
  id: ID.rolledApiKey,
  prefix: 'fls_prod_Qw7eR2tY',
  created_at: '2026-03-31T17:00:00.000Z',
  last_used_at: null,
  secret: 'fls_prod_Qw7eR2tYu8I9o0P1a2S3d4F5g6H7j8K9',
};

const delivery: WebhookDeliveryDto = {
  id: ID.delivery,
  endpoint_id: ID.endpoint,
  event_id: ID.event,
  event: 'document.updated',
  company_id: ID.company,
  status: 'SUCCEEDED',
  next_attempt_at: null,
  created_at: '2026-03-28T08:05:12.400Z',
  completed_at: '2026-03-28T08:05:43.610Z',
  attempts: [
    {
      attempted_at: '2026-03-28T08:05:12.950Z',
      outcome: 'FAILED',
      duration_ms: 182,
      response_status: 503,
      response_body: 'Service Unavailable',
      error: null,
    },
    { attempted_at: '2026-03-28T08:05:43.420Z', outcome: 'SUCCEEDED', duration_ms: 190, response_status: 200, response_body: '', error: null },
  ],
};
const testDelivery: WebhookDeliveryDto = {
  id: ID.testDelivery,
  endpoint_id: ID.endpoint,
  event_id: ID.testEvent,
  event: 'webhook.test',
  company_id: null,
  status: 'PENDING',
  next_attempt_at: '2026-03-31T17:10:00.000Z',
  created_at: '2026-03-31T17:10:00.000Z',
  completed_at: null,
  attempts: [],
};
const replayed: WebhookDeliveryDto = {
  ...delivery,
  id: ID.replay,
  status: 'PENDING',
  next_attempt_at: '2026-03-31T10:00:00.000Z',
  created_at: '2026-03-31T10:00:00.000Z',
  completed_at: null,
  attempts: [],
};

const batch: PaymentBatchDto = {
  id: ID.batch,
  status: 'DRAFT',
  account_id: ID.account,
  message_id: ID.batch.replace(/-/g, '').toUpperCase(),
  requested_execution_date: '2026-04-14',
  debtor: { name: 'Rossi Forniture S.r.l.', iban: 'IT60X0542811101000000123456', bic: null },
  payment_count: 1,
  control_sum: money('1220.00'),
  file_url: `/api/v1/companies/${ID.company}/payment-batches/${ID.batch}/file`,
  payments: [
    {
      id: ID.batchPayment,
      end_to_end_id: 'FATT-118-2026',
      payee_name: 'Cementeria Adriatica S.r.l.',
      iban: 'IT58X0306909606100000063712',
      amount: money('1220.00'),
      remittance_information: 'Fattura 118/2026, prima rata',
      flow_ids: [ID.billFirstFlow],
    },
  ],
  created_at: '2026-04-10T09:00:00.000Z',
  updated_at: '2026-04-10T09:00:00.000Z',
};

/** The file getPaymentBatchFile answers for the example batch, written by the one pain.001 writer. */
const batchFile = writePain001({
  messageId: batch.message_id,
  createdAt: new Date(batch.created_at),
  paymentInformationId: `${batch.message_id}-1`,
  requestedExecutionDate: batch.requested_execution_date,
  debtor: batch.debtor,
  transfers: batch.payments!.map((p) => ({
    endToEndId: p.end_to_end_id,
    amount: p.amount.amount,
    creditorName: p.payee_name,
    creditorIban: p.iban,
    remittanceInformation: p.remittance_information,
  })),
});

const share: InvoiceShareDto = {
  id: ID.share,
  document_id: ID.invoice,
  to: ['amministrazione@bianchicostruzioni.it'],
  reply_to: 'fatture@rossiforniture.it',
  subject: defaultTexts(invoice).subject,
  status: 'QUEUED',
  attempts: 0,
  failure_reason: null,
  created_at: '2026-03-02T11:30:00.000Z',
  completed_at: null,
};
const shareSent: InvoiceShareDto = { ...share, status: 'SENT', attempts: 1, completed_at: '2026-03-02T11:30:02.000Z' };

/** An F24 read from its PDF: IVA and withholdings less a credit (Erario), and the INPS contributions of February. */
const f24Request: F24RequestDto = {
  id: ID.f24Request,
  status: 'PROCESSED',
  file_name: 'F24-marzo-2026.pdf',
  label: 'IVA e ritenute marzo',
  media_type: 'application/pdf',
  size: 18432,
  sha256: '3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
  pages: ['text'],
  document_id: ID.f24Document,
  form: {
    tax_code: EXAMPLE_SELLER_VAT,
    payment_date: '2026-03-16',
    saldo: '4022.21',
    sections: [
      {
        kind: 'ERARIO',
        lines: [
          { code: '6003', office: null, reference: null, period: '2026', debit: '2100.00', credit: null },
          { code: '1001', office: null, reference: '0202', period: '2026', debit: '1234.56', credit: null },
          { code: '6099', office: null, reference: null, period: '2025', debit: null, credit: '300.00' },
        ],
        total_debit: '3334.56',
        total_credit: '300.00',
        balance: '3034.56',
      },
      {
        kind: 'INPS',
        lines: [{ code: 'DM10', office: '5100', reference: '5112345678', period: '02/2026', debit: '987.65', credit: null }],
        total_debit: '987.65',
        total_credit: '0.00',
        balance: '987.65',
      },
    ],
  },
  failure: null,
  file_url: `/api/v1/companies/${ID.company}/requests/f24/${ID.f24Request}/file`,
  created_at: '2026-03-10T09:30:00.000Z',
  processed_at: '2026-03-10T09:30:01.000Z',
};

/** An event as a webhook's body and the events API carry it (common/events/event.presenter.ts). */
const eventOf = <T>(id: string, type: string, createdAt: string, data: T, companyId: string | null = ID.company) => ({
  id,
  type,
  event: type,
  api_version: '1.2.0',
  company_id: companyId,
  created_at: createdAt,
  data,
});

export const WEBHOOK_EXAMPLES = {
  documentCreated: eventOf(ID.createdEvent, 'document.created', invoiceDraft.created_at, invoiceDraft),
  documentUpdated: eventOf(ID.event, 'document.updated', invoicePaid.updated_at, invoicePaid),
  documentDeleted: eventOf(ID.deletedEvent, 'document.deleted', '2026-03-06T09:30:00.000Z', { ...quote, version: 3, updated_at: '2026-03-06T09:30:00.000Z' }),
  f24Processed: eventOf(ID.f24Event, 'f24.processed', f24Request.processed_at!, f24Request),
  transactionCreated: eventOf(ID.transactionEvent, 'transaction.created', transfer.created_at, { ...transfer, reconciliations: [] }),
  reconciliationCreated: eventOf(ID.reconciliationEvent, 'reconciliation.created', reconciliation.created_at, {
    ...reconciliation,
    flow: invoiceFlowPaid,
    transaction: transfer,
  }),
  reconciliationDeleted: eventOf(ID.reconciliationDeletedEvent, 'reconciliation.deleted', '2026-03-29T09:00:00.000Z', {
    ...reconciliation,
    flow: invoiceFlowPaid,
    transaction: transfer,
  }),
  webhookTest: eventOf(ID.testEvent, 'webhook.test', '2026-03-31T17:10:00.000Z', { endpoint_id: ID.endpoint, requested_at: '2026-03-31T17:10:00.000Z' }, null),
  f24Failed: {
    id: ID.f24Event,
    type: 'f24.failed',
    event: 'f24.failed',
    api_version: '1.2.0',
    company_id: ID.company,
    created_at: f24Request.processed_at!,
    data: {
      ...f24Request,
      status: 'FAILED',
      document_id: null,
      form: null,
      failure: {
        reason: 'section_totals_mismatch',
        detail: "The SEZIONE ERARIO section's lines add up to 3334.56 debit and 300.00 credit, its totals say 3343.56 and 300.00.",
      },
    },
  },
};

const ALL = ['category', 'counterpart', 'flows', 'subcategory'];

/** The success answer of every operation that has a body, by operationId. */
export const RESPONSE_EXAMPLES: Record<string, ResponseExample> = {
  listCompanies: { value: list([company]), expand: ['subscriptions'] },
  listAccounts: { value: list([account]) },
  getAccount: { value: account },
  listCategories: { value: list([purchases, sales]) },
  createCategory: { value: sales },
  getCategory: { value: sales },
  updateCategory: { value: { ...sales, name: 'Vendite Italia' } },
  listSubcategories: { value: list([buildingMaterials]) },
  createSubcategory: { value: buildingMaterials },
  getSubcategory: { value: buildingMaterials },
  updateSubcategory: { value: { ...buildingMaterials, name: 'Materiali edili e cementi' } },
  listCounterparts: { value: list([customer, supplier]) },
  createCounterpart: { value: supplier },
  getCounterpart: { value: customer },
  updateCounterpart: { value: { ...customer, pec_address: 'bianchicostruzioni@legalmail.it' } },
  searchCounterparts: { value: searchResult },
  listDocuments: { value: list([bill, unexpanded(invoiceNoted, ['category', 'flows', 'subcategory'])]), expand: ['category', 'flows', 'subcategory'] },
  getDocument: { value: invoiceNoted, expand: ALL },
  updateDocument: { value: invoiceNoted },
  createInvoice: { value: { data: [invoiceDraft] } },
  issueDocument: { value: invoiceIssued },
  getInvoice: {
    value: {
      ...invoice,
      xml_url: `https://api.flusso.example/api/v1/invoice-files/${ID.invoice}?expires=1775037600&signature=hq1Xr5bq0n0mJ3z8yKQ4T2cW8mFQm9y6XkJpZ7dLw1A`,
      signed_file_url: null,
    },
  },
  getInvoiceFile: { value: invoiceToXml(invoice, { pretty: true }) },
  listFlows: { value: list([billFirstFlow, billSecondFlow]) },
  createFlow: { value: billSecondFlow },
  getFlow: { value: invoiceFlowPaid },
  updateFlow: { value: billFirstFlow },
  listProducts: { value: list([product]) },
  createProduct: { value: product },
  getProduct: { value: product },
  updateProduct: { value: { ...product, unit_price: money('9.40'), updated_at: '2026-03-20T08:00:00.000Z' } },
  listTransactions: { value: list([transferClassified]), expand: ['category', 'subcategory', 'reconciliations', 'reconciliations.flow'] },
  getTransaction: { value: transferClassified, expand: ['category', 'subcategory', 'reconciliations', 'reconciliations.flow'] },
  updateTransaction: { value: transferClassified },
  listReconciliations: { value: list([reconciliationNow]), expand: ['flow', 'transaction'] },
  createReconciliation: { value: { ...reconciliation, flow: invoiceFlowPaid, transaction: transfer } },
  getReconciliation: { value: reconciliationNow, expand: ['flow', 'transaction'] },
  createBulkPayment: { value: batch },
  listPaymentBatches: { value: list([batch]), expand: ['payments'] },
  getPaymentBatch: { value: batch, expand: ['payments'] },
  getPaymentBatchFile: { value: batchFile },
  createF24OcrRequest: { value: { data: { request_id: ID.f24Request, already_uploaded: false } } },
  getF24Request: { value: f24Request },
  listSectionals: { value: list([nextYearSectional, sectional]) },
  createSectional: { value: nextYearSectional },
  getSectional: { value: sectional },
  updateSectional: { value: { ...nextYearSectional, prefix: 'FE-2027/', next_number: 'FE-2027/0001', updated_at: '2026-03-31T15:10:00.000Z' } },
  listWebhookEndpoints: { value: list([endpoint]) },
  createWebhookEndpoint: { value: endpointWithSecret },
  getWebhookEndpoint: { value: endpoint },
  updateWebhookEndpoint: {
    value: { ...endpoint, enabled: false, disabled_reason: 'REQUESTED', disabled_at: '2026-03-31T17:00:00.000Z', updated_at: '2026-03-31T17:00:00.000Z' },
  },
  rotateWebhookSecret: { value: { ...endpointWithSecret, secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD', updated_at: '2026-03-31T17:05:00.000Z' } },
  listWebhookDeliveries: { value: list([delivery]) },
  listRequestLogs: { value: list([requestLog]) },
  getRequestLog: { value: requestLog },
  listApiKeys: {
    value: list([
      { ...apiKey, expires_at: '2026-04-01T17:00:00.000Z' },
      { ...rolledApiKey, secret: undefined },
    ]),
  },
  getApiKey: { value: apiKey },
  createApiKey: { value: apiKeyWithSecret },
  rollApiKey: { value: rolledApiKey },
  revokeApiKey: { value: { ...apiKey, status: 'REVOKED', revoked_at: '2026-03-31T18:00:00.000Z' } },
  listEvents: {
    value: { data: [eventOf(ID.event, 'document.updated', invoicePaid.updated_at, invoicePaid)], page: { cursor: 'eyJrIjpbIjc0MSIsIjEyIl19', size: 25 } },
  },
  getEvent: { value: eventOf(ID.event, 'document.updated', invoicePaid.updated_at, invoicePaid) },
  // The transfer, then the invoice it paid (the same last event as listEvents', so the same cursor).
  listAllEvents: {
    value: { data: [WEBHOOK_EXAMPLES.transactionCreated, WEBHOOK_EXAMPLES.documentUpdated], page: { cursor: 'eyJrIjpbIjc0MSIsIjEyIl19', size: 25 } },
  },
  replayWebhookEvent: { value: replayed },
  testWebhookEndpoint: { value: testDelivery },
  shareInvoice: { value: share },
  listInvoiceShares: { value: list([shareSent]) },
  getInvoiceShare: { value: shareSent },
  // The sandbox: the transfer that pays the invoice, reconciled with it at once; the supplier's invoice received; the
  // issued invoice moved on to its outcome.
  createSandboxTransactions: { value: { data: [{ ...transfer, reconciliations: [{ ...reconciliation, flow: invoiceFlowPaid }] }] } },
  receiveSandboxInvoice: { value: { data: [{ ...bill, category_id: null, category: null, version: 1, updated_at: bill.created_at }] } },
  deliverSandboxSdiNotices: {
    value: { ...invoiceIssued, status: 'DELIVERED', delivery_date: '2026-03-02T10:20:02.000Z', delivery_status: 'RC', version: 4 },
  },
};

/** The request body of every operation that takes a JSON one (createInvoice has its own, per media type). */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  createCategory: { name: sales.name },
  updateCategory: { name: 'Vendite Italia' },
  createSubcategory: { category_id: ID.sales, name: buildingMaterials.name },
  updateSubcategory: { name: 'Materiali edili e cementi' },
  createCounterpart: {
    company_name: supplier.company_name,
    vat_number: supplier.vat_number,
    tax_number: supplier.tax_number,
    address: supplier.address,
    city: supplier.city,
    postal_code: supplier.postal_code,
    province_code: supplier.province_code,
    country: supplier.country,
    destination_code: supplier.destination_code,
    pec_address: supplier.pec_address,
  },
  updateCounterpart: { pec_address: 'bianchicostruzioni@legalmail.it' },
  updateDocument: { notes: 'Consegna in cantiere, Corso Francia 48' },
  createFlow: { amount: money('1220.00'), expected_payment_date: '2026-05-15', payment_method: 'TRANSFER' },
  updateFlow: { amount: money('1220.00') },
  createProduct: {
    code: product.code,
    description: product.description,
    unit_price: product.unit_price,
    unit_of_measure: product.unit_of_measure,
    vat_percentage: product.vat_percentage,
  },
  updateProduct: { unit_price: money('9.40') },
  updateTransaction: { category_id: ID.sales, subcategory_id: ID.buildingMaterials },
  createReconciliation: { flow_id: ID.invoiceFlow, transaction_id: ID.transfer },
  createBulkPayment: {
    account_id: ID.account,
    requested_execution_date: '2026-04-14',
    payments: [
      {
        payee_name: 'Cementeria Adriatica S.r.l.',
        iban: 'IT58 X030 6909 6061 0000 0063 712',
        amount: money('1220.00'),
        remittance_information: 'Fattura 118/2026, prima rata',
        end_to_end_id: 'FATT-118-2026',
        flow_ids: [ID.billFirstFlow],
      },
    ],
  },
  createSectional: { year: 2027, prefix: 'FV-2027/', minimum_digits: 4 },
  updateSectional: { prefix: 'FE-2027/' },
  createWebhookEndpoint: { url: endpoint.url, description: endpoint.description, enabled_events: endpoint.enabled_events },
  updateWebhookEndpoint: { enabled: false },
  replayWebhookEvent: { event_id: ID.event },
  createApiKey: { name: apiKey.name, permissions: apiKey.permissions },
  rollApiKey: { expires_in: 86400 },
  shareInvoice: { to: share.to, reply_to: share.reply_to },
  createSandboxTransactions: {
    account_id: ID.account,
    transactions: [{ amount: transfer.amount.amount, date: transfer.date, description: transfer.description, counterpart_name: transfer.counterpart_name }],
  },
};

type Content = Record<string, { schema?: unknown; example?: unknown; examples?: Record<string, unknown> }>;
type Operation = { operationId?: string; requestBody?: { content?: Content }; responses?: Record<string, { description?: string; content?: Content }> };

/**
 * Puts the examples on the document: each operation's success answer (under its media type; a named example saying
 * which `expand` it shows when it expands anything), its JSON request body, and each webhook's body.
 */
export function documentExamples(document: { paths: object }, webhooks: Record<string, { post: Operation }>): void {
  for (const item of Object.values(document.paths) as object[]) {
    for (const operation of Object.values(item) as Operation[]) {
      const id = operation?.operationId;
      if (!id) continue;
      const response = RESPONSE_EXAMPLES[id];
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith('2') || !response) continue;
        for (const media of Object.values(answer.content ?? {})) {
          if (response.expand) media.examples = { expanded: { summary: `With expand=${response.expand.join(',')}`, value: response.value } };
          else media.example = response.value;
        }
      }
      const json = operation.requestBody?.content?.['application/json'];
      if (json && id in REQUEST_EXAMPLES) json.example = REQUEST_EXAMPLES[id];
    }
  }
  for (const [name, webhook] of Object.entries(webhooks)) {
    const json = webhook.post.requestBody?.content?.['application/json'];
    if (json) json.example = WEBHOOK_EXAMPLES[name as keyof typeof WEBHOOK_EXAMPLES];
  }
}
