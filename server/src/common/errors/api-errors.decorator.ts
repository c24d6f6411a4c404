import { applyDecorators } from '@nestjs/common';
import { ApiResponse, type MediaTypeObject, type ResponseObject } from '@nestjs/swagger';
import { errorItem, type ErrorItem } from './api-error.js';
import { codeForStatus, ERROR_CODES, type ErrorCode } from './error-codes.js';
import { IntegrationErrorDto } from './error.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: a required parameter is missing, or a parameter or member is malformed.',
  401: 'Unauthorized: no valid API key.',
  402: 'Request failed: the parameters were valid but the request failed.',
  403: 'Forbidden: the API key has no access to this company or resource (`forbidden`), or lacks the permission the call needs (`insufficient_permission`).',
  404: 'Not found.',
  409: 'Conflict: the change clashes with other data of the company (the `code` says which).',
  413: 'Payload too large.',
  415: 'Unsupported media type.',
  422: 'Unprocessable entity: well-formed, but a value breaks a rule.',
  429: 'Too many requests: the rate limit of the API key is exhausted, the company has more requests in progress at once than its share of the API, or failed authentications for the key prefix or from the address are over their limit; retry after `retry-after` seconds.',
  500: 'Internal server error.',
  502: 'Bad gateway.',
  503: 'Service unavailable: the database is unreachable or every connection of the API is busy, a lock or statement waited past its time limit, or every invoice reader is busy. Nothing was changed; retry after `retry-after` seconds.',
  504: 'Gateway timeout.',
};

const EXAMPLES: Partial<Record<ErrorCode, [string, string?]>> = {
  bad_request: ['amount is required', '/amount'],
  invalid_query_parameter: ['Unknown query parameter colour.', '/query/colour'],
  invalid_cursor: ['The cursor was made for other filters or another sort; keep them unchanged while paging.', '/query/cursor'],
  unauthorized: ['Send an API key as a bearer token in the Authorization header.'],
  forbidden: ['This API key has no access to this resource.'],
  insufficient_permission: ['This call needs the permission documents:write, which this API key lacks; use a key with documents:write or *.'],
  not_found: ['The item named in the path was not found in this company.'],
  unprocessable_entity: ['currency must be an ISO 4217 currency code such as EUR', '/amount/currency'],
  too_many_requests: ['Rate limit of 600 requests per 60 seconds exceeded; retry in 12 seconds.'],
  service_unavailable: ['Every database connection is busy; try again shortly.'],
  internal_server_error: ['An unexpected error occurred; it has been logged.'],
  request_failed: ['The company registry could not be queried; try again later.'],
  counterpart_exists: ['Counterpart 9d4b2c1a-7e6f-4a3b-8c2d-1e0f9a8b7c6d of this company already has the VAT number IT01234567890.', '/vat_number'],
  invalid_iban: ['An IBAN of IT has 27 characters; this one has 26.', '/payments/0/iban'],
  product_exists: ['Product 2c4e6a8b-0d1f-4a3b-9c5d-7e9f1a3b5c7d of this company already has the code PIZZA-MARG.', '/code'],
  sectional_exists: ['Sectional 3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c of this company already numbers year 2026 with prefix "FV/" and suffix "/2026".'],
  sectional_in_use: ['The sectional has issued numbers up to 42: its year, prefix and suffix can no longer change.', '/prefix'],
  sectional_year_mismatch: ['The sectional numbers the year 2025 and the document is dated 2026: number it from a sectional of 2026.', '/query/sectional_id'],
  sectional_gap: [
    "Document FV/0041/2026 has number 41 of its sectional, which has issued numbers up to FV/0042/2026: deleting it would leave a gap in the series. Only the document with the series' last number can be deleted.",
  ],
  invoice_number_given: [
    'The invoice has the number "FV-2026/0042" and sectional_id asks for the sectional\'s next one: leave numero out, or don\'t send sectional_id.',
    '/fattura_elettronica_body/0/dati_generali/dati_generali_documento/numero',
  ],
  invalid_invoice: [
    '"data" must be a date written YYYY-MM-DD, from 1970-01-01; got "02/03/2026"',
    '/fattura_elettronica_body/0/dati_generali/dati_generali_documento/data',
  ],
  invoice_too_complex: ['An element has more than 32 attributes (line 2); Flusso refuses such files before reading them.'],
  sdi_check_failed: [
    '00423: Line 1: PrezzoTotale is 905.00; unit price × quantity after discounts is 900.00',
    '/fattura_elettronica_body/0/dati_beni_servizi/dettaglio_linee/0/prezzo_totale',
  ],
  category_in_use: ['The category is used by 3 documents and 12 transactions; give them another category (or none) first.'],
  currency_mismatch: ["The flow's currency must be the document's (EUR), got USD.", '/amount/currency'],
  amount_below_reconciled: ["The flow's reconciliations allocate 400.00 EUR to it; its amount can't be less. Delete reconciliations first.", '/amount/amount'],
  reconciliation_exists: ['This flow and this transaction are already reconciled.', '/transaction_id'],
  direction_mismatch: ['This flow is money in (ISSUED INVOICE) and the transaction a DEBIT; it can be paid only by a CREDIT transaction.', '/transaction_id'],
  transaction_fully_reconciled: ['The flows already reconciled with this transaction use all of its amount.', '/transaction_id'],
  flow_fully_reconciled: ['The transactions already reconciled with this flow pay all of its amount.', '/flow_id'],
  amount_exceeds_remaining: ['Only 220.00 EUR of this flow remains to be paid.', '/amount/amount'],
  invalid_state: ['This flow is paid by its reconciled transactions; delete its reconciliations to set it TO_PAY.', '/payment_status'],
  document_sent_to_sdi: [
    'Document FV-2026/0042 is an e-invoice in status DELIVERED: it went to the SDI and stays in the books. Issue a credit note to cancel it.',
  ],
  flow_reconciled: ['The flow is reconciled with 1 transaction; delete its reconciliations before deleting it.'],
  flows_exceed_gross_amount: [
    "The document's flows would total 1500.00 EUR, more than its gross amount of 1220.00 EUR; 220.00 EUR is left for new or larger flows.",
    '/amount/amount',
  ],
  subcategory_mismatch: ["The subcategory belongs to another category than the document's; send its category_id with it.", '/subcategory_id'],
};

/** The request id of every error example. */
export const EXAMPLE_REQUEST_ID = '6f1c2b9e-4d3a-4e8f-9b7c-2a1d0e5f3c47';

/** An example answer of an error code, with the detail (and pointer) it typically has. */
export function errorExample(code: ErrorCode, item: ErrorItem = errorItem(code, ...(EXAMPLES[code] ?? [DESCRIPTIONS[ERROR_CODES[code].status]]))) {
  return { errors: [item], meta: { request_id: EXAMPLE_REQUEST_ID } };
}

/**
 * The codes a status given as a number stands for: its generic code, and for 403 also `insufficient_permission`, which
 * every operation answers to a key without its permission.
 */
function codesOfStatus(status: number): ErrorCode[] {
  return status === 403 ? ['forbidden', 'insufficient_permission'] : [codeForStatus(status)];
}

/**
 * Documents the error answers of an operation, each with the integration error schema and an example. A status gets
 * its generic code's example; an error code (such as `category_in_use`) documents its status with that code's example.
 * Several codes of one status (a status and codes of it, or several codes) are named in its description, with one
 * example each, the first as listed.
 */
export function ApiErrors(...answers: Array<number | ErrorCode>): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const answer of answers) {
    const status = typeof answer === 'number' ? answer : ERROR_CODES[answer].status;
    const codes = byStatus.get(status) ?? [];
    for (const code of typeof answer === 'number' ? codesOfStatus(answer) : [answer]) if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  const example = (code: ErrorCode) => errorExample(code);
  return applyDecorators(
    ...[...byStatus].map(([status, codes]) => {
      const generic = codes.length === 1 && codes[0] === codeForStatus(status);
      const named = codes.map((code) => `\`${code}\``).join(', ');
      return ApiResponse({
        status,
        description: generic ? DESCRIPTIONS[status] : `${DESCRIPTIONS[status]} ${codes.length === 1 ? 'Code' : 'Codes'} ${named}.`,
        type: IntegrationErrorDto,
        ...(codes.length === 1
          ? { example: example(codes[0]) }
          : { examples: Object.fromEntries(codes.map((code) => [code, { summary: ERROR_CODES[code].title, value: example(code) }])) }),
      });
    }),
  );
}

/**
 * The errors every authenticated call can answer with, besides its own. 402 is the counterpart search's alone (its
 * outside registry failed); 502 and 504 come from the network in front of the API, never from the API.
 */
export const COMMON_ERRORS = [401, 429, 500, 503] as const;

/** Adds the example of one more code to an error response that has examples of its own (idempotency, permissions). */
export function addErrorExample(response: ResponseObject, code: ErrorCode, value: ReturnType<typeof errorExample>): void {
  const media = (response.content ??= {})['application/json'] as MediaTypeObject;
  const examples = media.examples ?? {};
  if (media.example !== undefined) {
    const first = (media.example as ReturnType<typeof errorExample>).errors[0].code as ErrorCode;
    examples[first] = { summary: ERROR_CODES[first].title, value: media.example };
    delete media.example;
  }
  examples[code] = { summary: ERROR_CODES[code].title, value };
  media.examples = examples;
}
