/**
 * What the document row needs from an invoice, decided once: number, type, direction, format, date, amounts, the
 * counterpart (to match by VAT number or tax code, else create) and the flows. Pure: the caller stores the result.
 */
import type { Direction, DocumentFormat, DocumentType } from '../../documents/document.enums.js';
import type { PaymentMethod } from '../../flows/flow.enums.js';
import type { Money } from '../../common/money/money.js';
import { abs, fromUnits, sum, toUnits } from './decimal.js';
import { DOCUMENT_TYPE_OF, PAYMENT_METHOD_OF } from './document-types.js';
import { isSimplified, type EInvoice } from './e-invoice.js';
import type { Anagrafica, CedentePrestatore, CessionarioCommittente, DatiPagamento, DettaglioPagamento, Invoice, TipoDocumento } from './invoice.types.js';
import { companyIsBuyer, companyIsSeller, displayName, vatNumber, type CompanyIdentity } from './parties.js';
import { includedVat, simplifiedTotal } from './simplified-checks.js';
import type {
  SimplifiedCedentePrestatore,
  SimplifiedCessionarioCommittente,
  SimplifiedIndirizzo,
  SimplifiedInvoice,
  SimplifiedTipoDocumento,
} from './simplified.types.js';

export interface DerivedCounterpart {
  company_name: string;
  vat_number: string | null;
  tax_number: string | null;
  address: string;
  city: string;
  postal_code: string;
  province_code: string | null;
  country: string;
  /** The buyer's SDI code, when the counterpart is the buyer of an issued invoice. */
  destination_code: string | null;
}

export interface DerivedFlow {
  amount: Money;
  payment_method: PaymentMethod | null;
  expected_payment_date: string;
}

export interface DerivedDocument {
  number: string;
  tipo_documento: TipoDocumento | SimplifiedTipoDocumento;
  type: DocumentType;
  direction: Direction;
  format: DocumentFormat;
  /** The invoice date (Data). */
  creation_date: string;
  gross_amount: Money;
  vat_amount: Money;
  counterpart: DerivedCounterpart | null;
  flows: DerivedFlow[];
}

function party(side: CedentePrestatore | CessionarioCommittente, destinationCode: string | null): DerivedCounterpart {
  const data = side.dati_anagrafici;
  const office = side.sede;
  return {
    company_name: displayName(data.anagrafica),
    vat_number: vatNumber(data.id_fiscale_iva),
    tax_number: data.codice_fiscale ?? null,
    address: [office.indirizzo, office.numero_civico].filter(Boolean).join(' '),
    city: office.comune,
    postal_code: office.cap,
    province_code: office.provincia ?? null,
    country: office.nazione,
    destination_code: destinationCode,
  };
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function dueDate(payment: DettaglioPagamento, invoiceDate: string): string {
  if (payment.data_scadenza_pagamento) return payment.data_scadenza_pagamento.slice(0, 10);
  return addDays(payment.data_riferimento_termini_pagamento ?? invoiceDate, payment.giorni_termini_pagamento ?? 0);
}

/**
 * The payments the buyer owes. DettaglioPagamento repeats for instalments and also for alternatives (the same amount
 * on another bank account or by another method): when the details add up to more than the buyer owes, the repeats of
 * one DatiPagamento with the same amount and due date are alternatives, counted once.
 */
function paymentsOwed(blocks: DatiPagamento[], owed: bigint, invoiceDate: string): DettaglioPagamento[] {
  const all = blocks.flatMap((b) => b.dettaglio_pagamento);
  if (sum(all.map((p) => toUnits(p.importo_pagamento))) <= abs(owed)) return all;
  return blocks.flatMap((block) => {
    const seen = new Set<string>();
    return block.dettaglio_pagamento.filter((p) => {
      const key = `${toUnits(p.importo_pagamento)}/${dueDate(p, invoiceDate)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });
}

/**
 * Payment details that add up to more than can be owed (the SDI does not compare them with the totals) are cut, so that
 * a document never has more flows than the API lets any document have (`flows_exceed_gross_amount`): kept in due
 * order until the limit is reached, the last one reduced to what is left, the rest dropped. The file keeps them as
 * written.
 */
function withinLimit(flows: DerivedFlow[], limit: bigint, money: (units: bigint) => Money): DerivedFlow[] {
  const dueOrder = flows.map((_, i) => i).sort((a, b) => flows[a].expected_payment_date.localeCompare(flows[b].expected_payment_date) || a - b);
  const kept = new Map<number, bigint>();
  let left = limit;
  for (const i of dueOrder) {
    const units = abs(toUnits(flows[i].amount.amount));
    kept.set(i, units < left ? units : left);
    left -= kept.get(i)!;
  }
  return flows.flatMap((flow, i) => {
    const units = kept.get(i)!;
    if (units === 0n) return [];
    return [units === abs(toUnits(flow.amount.amount)) ? flow : { ...flow, amount: money(units) }];
  });
}

/**
 * The document facts of the first (only) invoice body. Amounts are non-negative (money never is): a negative total
 * is shown by its size. Rules:
 * - gross: ImportoTotaleDocumento, else (or when it is the summary's total less the withholding) the VAT summary
 *   (taxable + VAT of every rate) plus the document's rounding; VAT: the summary's Imposta;
 * - direction: RECEIVED for self-invoices and TD29; otherwise ISSUED when the company is the seller, RECEIVED when not;
 * - counterpart: the other party (the buyer when the company is the seller, else the seller), null when the
 *   company is both;
 * - flows, by the type's rule (DOCUMENT_TYPE_OF): one per DettaglioPagamento (ModalitaPagamento → payment_method,
 *   DataScadenzaPagamento, else the reference date plus the days, else the invoice date), alternatives counted once
 *   (paymentsOwed), never more than the gross (less the VAT for NET_OF_VAT: withinLimit); without DatiPagamento, one
 *   flow for what the buyer pays: the gross (net of VAT for NET_OF_VAT) less withholdings and, with split payment
 *   (EsigibilitaIVA S), less the VAT the public administration pays itself; none for NONE.
 */
export function deriveDocument(invoice: EInvoice, company: CompanyIdentity): DerivedDocument {
  return isSimplified(invoice) ? deriveSimplified(invoice, company) : deriveOrdinary(invoice, company);
}

function deriveOrdinary(invoice: Invoice, company: CompanyIdentity): DerivedDocument {
  const header = invoice.fattura_elettronica_header;
  const body = invoice.fattura_elettronica_body[0];
  const general = body.dati_generali.dati_generali_documento;
  const currency = general.divisa;
  const money = (units: bigint): Money => ({ amount: fromUnits(abs(units)), currency });
  const { type, sentByBuyer, flows: flowRule } = DOCUMENT_TYPE_OF[general.tipo_documento];
  const isSeller = companyIsSeller(invoice, company);
  const isBuyer = companyIsBuyer(invoice, company);
  const direction: Direction = sentByBuyer || !isSeller ? 'RECEIVED' : 'ISSUED';

  const summaries = body.dati_beni_servizi.dati_riepilogo;
  const vat = sum(summaries.map((s) => toUnits(s.imposta)));
  const summaryTotal =
    sum(summaries.map((s) => toUnits(s.imponibile_importo) + toUnits(s.imposta))) + (general.arrotondamento ? toUnits(general.arrotondamento) : 0n);
  const withheld = sum((general.dati_ritenuta ?? []).map((r) => toUnits(r.importo_ritenuta)));
  const declaredTotal = general.importo_totale_documento !== undefined ? toUnits(general.importo_totale_documento) : undefined;
  // The SDI does not check ImportoTotaleDocumento, and many senders write it net of the withholding (what the buyer
  // pays) although the specification's total includes it: recognised, the gross is the summary's and the withholding
  // is not taken off twice.
  const netOfWithholding = declaredTotal !== undefined && withheld !== 0n && declaredTotal === summaryTotal - withheld;
  const gross = declaredTotal === undefined || netOfWithholding ? summaryTotal : declaredTotal;

  const splitPaymentVat = sum(summaries.filter((s) => s.esigibilita_iva === 'S').map((s) => toUnits(s.imposta)));
  // What the seller can be paid at most (DOCUMENT_TYPE_OF says why per type), and what the buyer owes without details.
  const limit = flowRule === 'NET_OF_VAT' ? abs(gross) - abs(vat) : abs(gross);
  const owed = (flowRule === 'NET_OF_VAT' ? gross - vat : gross) - withheld - splitPaymentVat;
  const payments = paymentsOwed(body.dati_pagamento ?? [], owed, general.data);
  const flows: DerivedFlow[] =
    flowRule === 'NONE'
      ? []
      : payments.length
        ? withinLimit(
            payments.map((p) => ({
              amount: money(toUnits(p.importo_pagamento)),
              payment_method: PAYMENT_METHOD_OF[p.modalita_pagamento],
              expected_payment_date: dueDate(p, general.data),
            })),
            limit,
            money,
          )
        : [{ amount: money(owed), payment_method: null, expected_payment_date: general.data.slice(0, 10) }];

  // The other party: the buyer when the company sells, the seller when it buys; none when it is both (TD21, TD27).
  const counterpart =
    isSeller && isBuyer
      ? null
      : isSeller
        ? party(header.cessionario_committente, header.dati_trasmissione.codice_destinatario)
        : party(header.cedente_prestatore, null);

  return {
    number: general.numero,
    tipo_documento: general.tipo_documento,
    type,
    direction,
    format: header.dati_trasmissione.formato_trasmissione,
    creation_date: general.data.slice(0, 10),
    gross_amount: money(gross),
    vat_amount: money(vat),
    counterpart,
    flows,
  };
}

/** A party of a simplified invoice: the seller's name and office are always there, the buyer's only when given. */
function simplifiedParty(
  ids: { id_fiscale_iva?: SimplifiedCedentePrestatore['id_fiscale_iva']; codice_fiscale?: string },
  named: (Anagrafica & { sede: SimplifiedIndirizzo }) | undefined,
  destinationCode: string | null,
): DerivedCounterpart {
  const vat = vatNumber(ids.id_fiscale_iva);
  const office = named?.sede;
  return {
    // A buyer known by its identifiers alone is named by them, until someone renames the counterpart.
    company_name: named ? displayName(named) : (vat ?? ids.codice_fiscale ?? ''),
    vat_number: vat,
    tax_number: ids.codice_fiscale ?? null,
    address: office ? [office.indirizzo, office.numero_civico].filter(Boolean).join(' ') : '',
    city: office?.comune ?? '',
    postal_code: office?.cap ?? '',
    province_code: office?.provincia ?? null,
    country: office?.nazione ?? ids.id_fiscale_iva?.id_paese ?? 'IT',
    destination_code: destinationCode,
  };
}

/**
 * The document facts of a simplified invoice (FSM10), which has neither lines with prices nor payment data:
 * - gross: the amounts (Importo, VAT included) added up; VAT: each amount's Imposta, else amount × rate / (100 + rate)
 *   rounded to cents (the format's DatiIVA gives one or the other);
 * - direction, type and flow rule from DOCUMENT_TYPE_OF (TD07 invoice, TD08 credit note, TD09 debit note, all OWED);
 * - flows: one, of the gross, due on the invoice date, without a payment method (the file says none);
 * - counterpart: the buyer (IdentificativiFiscali, and AltriDatiIdentificativi when given) when the company sells, else
 *   the seller.
 */
function deriveSimplified(invoice: SimplifiedInvoice, company: CompanyIdentity): DerivedDocument {
  const header = invoice.fattura_elettronica_header;
  const body = invoice.fattura_elettronica_body[0];
  const general = body.dati_generali.dati_generali_documento;
  const money = (units: bigint): Money => ({ amount: fromUnits(abs(units)), currency: general.divisa });
  const { type, flows: flowRule } = DOCUMENT_TYPE_OF[general.tipo_documento];
  const isSeller = companyIsSeller(invoice, company);
  const gross = simplifiedTotal(body);
  const vat = sum(body.dati_beni_servizi.map(includedVat));
  const seller: SimplifiedCedentePrestatore = header.cedente_prestatore;
  const buyer: SimplifiedCessionarioCommittente = header.cessionario_committente;
  return {
    number: general.numero,
    tipo_documento: general.tipo_documento,
    type,
    direction: isSeller ? 'ISSUED' : 'RECEIVED',
    format: header.dati_trasmissione.formato_trasmissione,
    creation_date: general.data.slice(0, 10),
    gross_amount: money(gross),
    vat_amount: money(vat),
    counterpart: isSeller
      ? simplifiedParty(buyer.identificativi_fiscali, buyer.altri_dati_identificativi, header.dati_trasmissione.codice_destinatario)
      : simplifiedParty(seller, seller, null),
    flows: flowRule === 'NONE' ? [] : [{ amount: money(gross), payment_method: null, expected_payment_date: general.data.slice(0, 10) }],
  };
}
