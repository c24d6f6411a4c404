import { randomUUID } from 'node:crypto';
import { flowsComeIn, type DeliveryStatus, type Direction, type DocumentFormat, type DocumentStatus, type DocumentType } from '../documents/document.enums.js';
import { documentFormat } from '../documents/document-format.js';
import type { PaymentMethod } from '../flows/flow.enums.js';
import type { TransactionType } from '../transactions/transaction.entity.js';
import type { AccountBalances, DemoAccounts, CategoryRefs } from './ledger.js';
import type { Row } from '../common/database/bulk-insert.js';
import type { CounterpartRole } from './catalogue.js';
import { addDays, atMinute, daysBetween, formatCents, italianDate } from './calendar.js';
import type { DemoCounterpart } from './counterparts.js';
import type { Random } from './random.js';

/**
 * Documents issued and received over the last year, each with its payment flows. Flows that came due were mostly
 * paid: each such payment is a bank transaction of the same amount on the payment date, and most are reconciled with
 * their flow, as the API's reconciliation rules would have left them.
 */

interface Scenario {
  type: DocumentType;
  direction: Direction;
  roles: readonly CounterpartRole[];
  eInvoice: boolean;
  weight: number;
  /** Only counterparts of these categories (professionals send parcelle). */
  categories?: readonly string[];
}

const SCENARIOS: readonly Scenario[] = [
  { type: 'INVOICE', direction: 'ISSUED', roles: ['CUSTOMER', 'PUBLIC_BODY'], eInvoice: true, weight: 26 },
  { type: 'CREDIT_NOTE', direction: 'ISSUED', roles: ['CUSTOMER'], eInvoice: true, weight: 3 },
  { type: 'DEBIT_NOTE', direction: 'ISSUED', roles: ['CUSTOMER'], eInvoice: true, weight: 1 },
  { type: 'QUOTE', direction: 'ISSUED', roles: ['CUSTOMER', 'PUBLIC_BODY'], eInvoice: false, weight: 6 },
  { type: 'INVOICE', direction: 'RECEIVED', roles: ['SUPPLIER'], eInvoice: true, weight: 38 },
  { type: 'BILL', direction: 'RECEIVED', roles: ['UTILITY'], eInvoice: true, weight: 12 },
  { type: 'CREDIT_NOTE', direction: 'RECEIVED', roles: ['SUPPLIER'], eInvoice: true, weight: 3 },
  // Reverse charge: the company invoices itself for a foreign supplier's service, so it counts as received.
  { type: 'SELF_INVOICE', direction: 'RECEIVED', roles: ['FOREIGN_SUPPLIER'], eInvoice: true, weight: 4 },
  { type: 'DELIVERY_NOTE', direction: 'RECEIVED', roles: ['SUPPLIER'], eInvoice: false, weight: 4 },
  { type: 'PARCEL', direction: 'RECEIVED', roles: ['SUPPLIER'], eInvoice: false, weight: 2, categories: ['Consulenze'] },
  { type: 'OTHER', direction: 'RECEIVED', roles: ['SUPPLIER'], eInvoice: false, weight: 1 },
];

/** A line of a document: its net amount and VAT rate (percent). */
export interface DocumentLine {
  netCents: number;
  rate: number;
}

export interface DocumentSet {
  documents: Row[];
  /** The lines of each document, by document id (what its e-invoice file lists). */
  lines: Map<string, DocumentLine[]>;
  flows: Row[];
  /** Bank transactions that paid flows. */
  payments: Row[];
  reconciliations: Row[];
}

export interface DocumentContext {
  companyId: string;
  /** With its country prefix: the e-invoices the company transmits are named after it. */
  companyVatNumber: string;
  today: string;
  random: Random;
  counterparts: readonly DemoCounterpart[];
  categories: CategoryRefs;
  accounts: DemoAccounts;
  balances: AccountBalances;
}

interface Draft {
  id: string;
  scenario: Scenario;
  counterpart: DemoCounterpart;
  creationDate: string;
  /** Minutes after midnight (UTC) the document was created. */
  minute: number;
  lines: DocumentLine[];
  netCents: number;
  vatCents: number;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Suppliers' progressives never start with 0, the company's own do (for their first 36⁴ files): the two never meet. */
const NOT_ZERO = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789';
const NOT_PAYABLE_STATUSES: readonly DocumentStatus[] = ['DRAFT', 'DISCARDED', 'REFUSED'];
const NOT_PAYABLE_TYPES: readonly DocumentType[] = ['QUOTE', 'DELIVERY_NOTE'];

const pad = (value: number, length: number) => String(value).padStart(length, '0');

/** How suppliers number their documents: each supplier keeps one style. */
const SUPPLIER_NUMBER_STYLES: readonly ((n: number, year: string) => string)[] = [
  (n, year) => `${n}/${year}`,
  (n, year) => `FE-${year}-${pad(n, 5)}`,
  (n, year) => `${year}/${pad(n, 4)}/E`,
  (n) => `V2-${pad(n, 6)}`,
];

const ISSUED_NUMBER_STYLES: Partial<Record<DocumentType, (n: number, year: string) => string>> = {
  INVOICE: (n, year) => `${n}/${year}`,
  CREDIT_NOTE: (n, year) => `NC${n}/${year}`,
  DEBIT_NOTE: (n, year) => `ND${n}/${year}`,
  QUOTE: (n, year) => `PREV-${year}-${pad(n, 3)}`,
  SELF_INVOICE: (n, year) => `AF${n}/${year}`,
};

const RECEIVED_NUMBER_PREFIXES: Partial<Record<DocumentType, string>> = { DELIVERY_NOTE: 'DDT ', PARCEL: 'P', OTHER: 'RIC-' };

/**
 * A document of one to three lines, each at one of the counterpart's VAT rates. The VAT is computed per rate, on the
 * rate's taxable total, as the e-invoice's summary (DatiRiepilogo) states it.
 */
function amounts(counterpart: DemoCounterpart, type: DocumentType, random: Random): { lines: DocumentLine[]; netCents: number; vatCents: number } {
  const [min, max] = counterpart.kind.net;
  const scale = type === 'CREDIT_NOTE' || type === 'DEBIT_NOTE' ? 0.2 : 1;
  const lines: DocumentLine[] = [];
  for (let line = random.int(1, 3); line > 0; line--) {
    lines.push({ netCents: Math.round((random.int(min, max) * scale) / 3), rate: random.pick(counterpart.kind.vatRates) });
  }
  const netCents = lines.reduce((sum, line) => sum + line.netCents, 0);
  const vatCents = vatSummary(lines).reduce((sum, rate) => sum + rate.vatCents, 0);
  return { lines, netCents, vatCents };
}

/** The lines' taxable amount and VAT per rate, in the order the rates first appear. */
export function vatSummary(lines: readonly DocumentLine[]): Array<{ rate: number; netCents: number; vatCents: number }> {
  const byRate = new Map<number, number>();
  for (const line of lines) byRate.set(line.rate, (byRate.get(line.rate) ?? 0) + line.netCents);
  return [...byRate].map(([rate, netCents]) => ({ rate, netCents, vatCents: Math.round((netCents * rate) / 100) }));
}

function pickCounterpart(scenario: Scenario, counterparts: readonly DemoCounterpart[], random: Random): DemoCounterpart {
  const candidates = counterparts.filter(
    (c) => scenario.roles.includes(c.kind.role) && (!scenario.categories || scenario.categories.includes(c.kind.category[0])),
  );
  return random.weighted(candidates.map((c) => [c, c.kind.weight] as const));
}

function draftDocuments(context: DocumentContext, count: number): Draft[] {
  const { random, today } = context;
  const drafts = Array.from({ length: count }, (): Draft => {
    const scenario = random.weighted(SCENARIOS.map((s) => [s, s.weight] as const));
    const counterpart = pickCounterpart(scenario, context.counterparts, random);
    return {
      id: randomUUID(),
      scenario,
      counterpart,
      creationDate: addDays(today, -random.int(1, 365)),
      minute: random.int(8 * 60, 17 * 60),
      ...amounts(counterpart, scenario.type, random),
    };
  });
  // Numbers follow dates, as an Italian numbering sequence must.
  return drafts.sort((a, b) => a.creationDate.localeCompare(b.creationDate) || a.minute - b.minute);
}

function status(draft: Draft, today: string, random: Random): DocumentStatus {
  const { scenario, counterpart } = draft;
  if (!scenario.eInvoice)
    return scenario.type === 'QUOTE'
      ? random.weighted([
          ['DRAFT', 1],
          ['CREATED', 3],
        ])
      : 'CREATED';
  // Received e-invoices arrive through the SDI already delivered; the company transmits the rest itself.
  if (scenario.direction === 'RECEIVED' && scenario.type !== 'SELF_INVOICE') return 'DELIVERED';
  if (daysBetween(draft.creationDate, today) <= 3) {
    return random.weighted([
      ['DRAFT', 2],
      ['CREATED', 2],
      ['SENT', 4],
      ['DELIVERED', 2],
    ]);
  }
  return random.weighted<DocumentStatus>([
    ['DELIVERED', 80],
    ['NOT_DELIVERED', 6],
    ['DISCARDED', 3],
    ['DRAFT', 4],
    ['SENT', 2],
    ['REFUSED', counterpart.kind.role === 'PUBLIC_BODY' ? 10 : 0],
  ]);
}

/** The SDI receipt matching a status: consegna, mancata consegna, scarto, esito (public bodies), decorrenza termini. */
function deliveryStatus(documentStatus: DocumentStatus, draft: Draft, random: Random): DeliveryStatus | null {
  switch (documentStatus) {
    case 'DELIVERED':
      return draft.counterpart.kind.role === 'PUBLIC_BODY' && random.chance(0.3) ? 'DT' : 'RC';
    case 'NOT_DELIVERED':
      return 'MC';
    case 'DISCARDED':
      return 'NS';
    case 'REFUSED':
      return 'NE';
    default:
      return null;
  }
}

/**
 * As the SDI would choose (documentFormat): FPA12 for a public administration's invoices, FPR12 for the rest. No
 * simplified invoices (FSM10): every demo e-invoice carries its file (e-invoice-files.ts), and Flusso's FatturaPA
 * model is the ordinary invoice.
 */
function format(draft: Draft): DocumentFormat {
  return documentFormat(draft.scenario.direction, draft.counterpart);
}

/** Hands out document numbers and SDI file names in date order. */
class Numbering {
  private readonly issued = new Map<string, number>();
  private readonly suppliers = new Map<string, { style: (n: number, year: string) => string; next: number }>();
  private readonly received = new Set<string>();
  private transmissions = 0;

  constructor(
    private readonly companyVatNumber: string,
    private readonly random: Random,
  ) {}

  number(draft: Draft): string {
    const year = draft.creationDate.slice(0, 4);
    const { type, direction } = draft.scenario;
    const issuedStyle = ISSUED_NUMBER_STYLES[type];
    if (issuedStyle && (direction === 'ISSUED' || type === 'SELF_INVOICE')) {
      const key = `${type}/${year}`;
      const n = (this.issued.get(key) ?? 0) + 1;
      this.issued.set(key, n);
      return issuedStyle(n, year);
    }
    const supplier = this.suppliers.get(draft.counterpart.id) ?? { style: this.random.pick(SUPPLIER_NUMBER_STYLES), next: this.random.int(10, 900) };
    this.suppliers.set(draft.counterpart.id, supplier);
    supplier.next += this.random.int(1, 40);
    const prefix = RECEIVED_NUMBER_PREFIXES[type];
    return prefix ? `${prefix}${supplier.next}/${year}` : supplier.style(supplier.next, year);
  }

  /**
   * IT01234567890_0001A.xml: the transmitter's VAT number and a five-character progressive. Every e-invoice has one,
   * drafts included, as the API gives one when it creates the document.
   */
  fileName(draft: Draft): string {
    const transmittedByCompany = draft.scenario.direction === 'ISSUED' || draft.scenario.type === 'SELF_INVOICE';
    if (!transmittedByCompany) {
      let progressive: string;
      do progressive = this.random.chars(NOT_ZERO, 1) + this.random.chars(ALPHANUMERIC, 4);
      while (this.received.has(progressive));
      this.received.add(progressive);
      return `${draft.counterpart.vatNumber}_${progressive}.xml`;
    }
    this.transmissions += 1;
    return `${this.companyVatNumber}_${this.transmissions.toString(36).toUpperCase().padStart(5, '0')}.xml`;
  }
}

function instalments(grossCents: number, method: PaymentMethod, random: Random): number[] {
  const count =
    grossCents < 20_000 || method === 'CARD' || method === 'CASH' || method === 'SDD'
      ? 1
      : random.weighted<number>([
          [1, method === 'RIBA' ? 2 : 6],
          [2, 2],
          [3, 1],
        ]);
  const share = Math.floor(grossCents / count);
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? grossCents - share * (count - 1) : share));
}

function paymentText(method: PaymentMethod, incoming: boolean, draft: Draft, number: string, date: string, random: Random) {
  const name = draft.counterpart.companyName;
  const upper = name.toUpperCase();
  if (method === 'SDD') return { description: `ADDEBITO SDD CORE ${upper} MANDATO ${random.chars(ALPHANUMERIC, 10)}`, clean: `Addebito diretto ${name}` };
  if (method === 'RIBA') return { description: `PAGAMENTO RI.BA. ${upper} SCAD. ${italianDate(date)} EFF. N. ${random.digits(8)}`, clean: `Ri.Ba. ${name}` };
  if (method === 'CARD') {
    return incoming
      ? { description: `INCASSO POS CARTA ${upper} DEL ${italianDate(date)}`, clean: `Incasso con carta da ${name}` }
      : { description: `PAGAMENTO POS ${upper} CARTA *${random.digits(4)}`, clean: `Pagamento con carta a ${name}` };
  }
  return incoming
    ? { description: `BONIFICO SEPA DA ${upper} CAUS. SALDO FATT. ${number} DEL ${italianDate(draft.creationDate)}`, clean: `Bonifico da ${name}` }
    : { description: `BONIFICO SEPA A FAVORE DI ${upper} CAUS. PAGAMENTO FT ${number}`, clean: `Bonifico a ${name}` };
}

export function generateDocuments(context: DocumentContext, count: number, maxPayments: number): DocumentSet {
  const { random, today, companyId } = context;
  const set: DocumentSet = { documents: [], lines: new Map(), flows: [], payments: [], reconciliations: [] };
  const numbering = new Numbering(context.companyVatNumber, random);
  const lastDay = addDays(today, -1);

  for (const draft of draftDocuments(context, count)) {
    const { scenario, counterpart } = draft;
    const documentStatus = status(draft, today, random);
    const receipt = deliveryStatus(documentStatus, draft, random);
    const number = numbering.number(draft);
    const createdAt = atMinute(draft.creationDate, draft.minute);
    const deliveredAt = receipt ? atMinute(draft.creationDate, draft.minute + random.int(20, 300)) : null;
    const category = random.chance(0.12) ? null : context.categories(counterpart.kind.category);
    const grossCents = draft.netCents + draft.vatCents;
    set.documents.push({
      id: draft.id,
      company_id: companyId,
      number,
      type: scenario.type,
      status: documentStatus,
      format: format(draft),
      is_e_invoice: scenario.eInvoice,
      direction: scenario.direction,
      currency: 'EUR',
      gross_amount: formatCents(grossCents),
      vat_amount: formatCents(draft.vatCents),
      category_id: category?.categoryId,
      subcategory_id: category?.subcategoryId,
      counterpart_id: counterpart.id,
      creation_date: draft.creationDate,
      delivery_date: deliveredAt,
      delivery_status: receipt,
      file_name: scenario.eInvoice ? numbering.fileName(draft) : null,
      notes: scenario.type === 'QUOTE' ? 'Preventivo per evento aziendale' : null,
      source_id: scenario.direction === 'ISSUED' && random.chance(0.5) ? `GEST-${draft.creationDate.slice(0, 4)}-${pad(set.documents.length + 1, 5)}` : null,
      created_at: createdAt,
      updated_at: deliveredAt ?? createdAt,
    });
    set.lines.set(draft.id, draft.lines);

    const method = counterpart.kind.paymentMethod;
    const payable = !NOT_PAYABLE_STATUSES.includes(documentStatus) && !NOT_PAYABLE_TYPES.includes(scenario.type);
    const incoming = flowsComeIn(draft.scenario);
    // A self-invoice (TD17) pays the foreign supplier the taxable: its VAT is the company's own reverse charge.
    const owedCents = scenario.type === 'SELF_INVOICE' ? draft.netCents : grossCents;
    instalments(owedCents, method, random).forEach((cents, index) => {
      const flowId = randomUUID();
      const expected = addDays(draft.creationDate, counterpart.kind.termsDays + 30 * index);
      const paid = payable && expected <= lastDay && random.chance(incoming ? 0.85 : 0.92);
      const paymentDate = paid ? clampDate(addDays(expected, random.int(-2, 8)), draft.creationDate, lastDay) : null;
      const flow: Row = {
        id: flowId,
        company_id: companyId,
        document_id: draft.id,
        amount: formatCents(cents),
        currency: 'EUR',
        paid_amount: '0',
        payment_status: paid ? 'PAID' : 'TO_PAY',
        payment_method: method,
        expected_payment_date: expected,
        payment_date: paymentDate,
        created_at: createdAt,
        updated_at: paymentDate ? atMinute(paymentDate, 20 * 60) : createdAt,
      };
      set.flows.push(flow);
      // Cash never reaches the bank; the rest of the paid flows left a bank transaction.
      if (!paymentDate || method === 'CASH' || set.payments.length >= maxPayments) return;
      const transactionId = randomUUID();
      const type: TransactionType = incoming ? 'CREDIT' : 'DEBIT';
      const accountId = incoming && method === 'CARD' ? context.accounts.pos : context.accounts.main;
      const text = paymentText(method, incoming, draft, number, paymentDate, random);
      const bookedAt = atMinute(paymentDate, random.int(7 * 60, 19 * 60));
      context.balances.add(accountId, type, cents);
      set.payments.push({
        id: transactionId,
        company_id: companyId,
        account_id: accountId,
        type,
        amount: formatCents(cents),
        currency: 'EUR',
        booking_date_time: bookedAt,
        date: paymentDate,
        value_date: paymentDate,
        description: text.description,
        clean_description: text.clean,
        counterpart_name: counterpart.companyName,
        category_id: category?.categoryId,
        subcategory_id: category?.subcategoryId,
        created_at: bookedAt,
      });
      // Some payments still wait for the user to reconcile them; the others pay their flow in full.
      if (random.chance(0.85)) {
        set.reconciliations.push({
          id: randomUUID(),
          company_id: companyId,
          flow_id: flowId,
          transaction_id: transactionId,
          amount: formatCents(cents),
          currency: 'EUR',
          created_at: atMinute(paymentDate, 20 * 60),
        });
        flow.paid_amount = formatCents(cents);
      }
    });
  }
  return set;
}

function clampDate(date: string, from: string, to: string): string {
  return date < from ? from : date > to ? to : date;
}
