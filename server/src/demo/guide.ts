import { randomUUID } from 'node:crypto';
import type { Row } from '../common/database/bulk-insert.js';
import { addDays, atMinute, formatCents, italianDate } from './calendar.js';
import type { DemoCounterpart } from './counterparts.js';
import type { DocumentLine } from './documents.js';
import { COUNTERPART_KINDS } from './catalogue.js';
import type { AccountBalances, CategoryRefs, DemoAccounts } from './ledger.js';

/**
 * What the portal's guides use, present in every demo company so that they can be followed literally: the
 * counterpart Ferramenta Bianchi S.p.A. (the `bianchi` searches), a recent invoice issued to it with one flow still
 * TO_PAY, and the unreconciled bank transfer of the same amount that pays it (the step-by-step quickstart reconciles
 * the two and sees the flow become PAID). `guide.spec.ts` follows the quickstart's calls against a fresh demo.
 */

/** The counterpart's partita IVA, as the FAQ and the filter guide write it. */
export const GUIDE_VAT_NUMBER = 'IT09876543217';
export const GUIDE_COUNTERPART_NAME = 'Ferramenta Bianchi S.p.A.';
/** Days before the data set's `today` the invoice was issued, and the transfer booked. */
const INVOICE_DAYS_AGO = 4;
const PAYMENT_DAYS_AGO = 1;
const NET_CENTS = 100_000;
const VAT_CENTS = 22_000;

export interface GuideContext {
  companyId: string;
  companyVatNumber: string;
  today: string;
  categories: CategoryRefs;
  accounts: DemoAccounts;
  balances: AccountBalances;
}

export interface GuideRows {
  counterpart: DemoCounterpart;
  document: Row;
  /** The invoice's one line: the room rental, at 22%. */
  lines: DocumentLine[];
  flow: Row;
  transaction: Row;
}

/** A customer that books the company's room for its events: the "Eventi" customers' terms, a 22% rental. */
function guideCounterpart(): DemoCounterpart {
  const kind = COUNTERPART_KINDS.find((k) => k.role === 'CUSTOMER' && k.paymentMethod === 'TRANSFER')!;
  return {
    id: randomUUID(),
    kind,
    companyName: GUIDE_COUNTERPART_NAME,
    address: 'Via Emilia Est 45',
    city: 'Modena',
    postalCode: '41121',
    provinceCode: 'MO',
    country: 'IT',
    taxNumber: GUIDE_VAT_NUMBER.slice(2),
    vatNumber: GUIDE_VAT_NUMBER,
    destinationCode: 'M5UXCR1',
  };
}

/**
 * The guide's rows. `issuedInvoiceNumbers` are the numbers the company already gave its invoices, so the guide's
 * invoice takes the next one of its year.
 */
export function guideRows(context: GuideContext, issuedInvoiceNumbers: readonly string[]): GuideRows {
  const { companyId, today } = context;
  const counterpart = guideCounterpart();
  const creationDate = addDays(today, -INVOICE_DAYS_AGO);
  const paymentDate = addDays(today, -PAYMENT_DAYS_AGO);
  const year = creationDate.slice(0, 4);
  const taken = issuedInvoiceNumbers.filter((number) => number.endsWith(`/${year}`)).map((number) => Number(number.split('/')[0]));
  const number = `${Math.max(0, ...taken) + 1}/${year}`;
  const createdAt = atMinute(creationDate, 9 * 60 + 30);
  const deliveredAt = atMinute(creationDate, 11 * 60 + 12);
  const category = context.categories(counterpart.kind.category);
  const grossCents = NET_CENTS + VAT_CENTS;
  const documentId = randomUUID();

  const document: Row = {
    id: documentId,
    company_id: companyId,
    number,
    type: 'INVOICE',
    status: 'DELIVERED',
    format: 'FPR12',
    is_e_invoice: true,
    direction: 'ISSUED',
    currency: 'EUR',
    gross_amount: formatCents(grossCents),
    vat_amount: formatCents(VAT_CENTS),
    category_id: category.categoryId,
    subcategory_id: category.subcategoryId,
    counterpart_id: counterpart.id,
    creation_date: creationDate,
    delivery_date: deliveredAt,
    delivery_status: 'RC',
    file_name: `${context.companyVatNumber}_ZZ${number.split('/')[0].padStart(3, '0')}.xml`,
    notes: null,
    source_id: null,
    created_at: createdAt,
    updated_at: deliveredAt,
  };
  const flow: Row = {
    id: randomUUID(),
    company_id: companyId,
    document_id: documentId,
    amount: formatCents(grossCents),
    currency: 'EUR',
    paid_amount: '0',
    payment_status: 'TO_PAY',
    payment_method: 'TRANSFER',
    expected_payment_date: addDays(creationDate, counterpart.kind.termsDays),
    payment_date: null,
    created_at: createdAt,
    updated_at: createdAt,
  };
  const bookedAt = atMinute(paymentDate, 9 * 60 + 42);
  context.balances.add(context.accounts.main, 'CREDIT', grossCents);
  const transaction: Row = {
    id: randomUUID(),
    company_id: companyId,
    account_id: context.accounts.main,
    type: 'CREDIT',
    amount: formatCents(grossCents),
    currency: 'EUR',
    booking_date_time: bookedAt,
    date: paymentDate,
    value_date: paymentDate,
    description: `BONIFICO A VOSTRO FAVORE DA FERRAMENTA BIANCHI SPA CAUS: SALDO FATT. ${number} DEL ${italianDate(creationDate)}`,
    clean_description: `Saldo fatt. ${number} del ${italianDate(creationDate)}`,
    counterpart_name: 'FERRAMENTA BIANCHI SPA',
    // Not categorised yet: the company has not looked at it.
    category_id: null,
    subcategory_id: null,
    created_at: atMinute(paymentDate, 10 * 60 + 5),
  };
  return { counterpart, document, lines: [{ netCents: NET_CENTS, rate: 22 }], flow, transaction };
}
