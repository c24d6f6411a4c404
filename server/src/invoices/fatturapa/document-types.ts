/**
 * How FatturaPA codes become Flusso's words: TipoDocumento → document type, ModalitaPagamento → payment_method.
 * Both tables are on the portal (basics/common-terms.md): change them together.
 */
import type { DocumentType } from '../../documents/document.enums.js';
import type { PaymentMethod } from '../../flows/flow.enums.js';
import type { ModalitaPagamento, TipoDocumento } from './invoice.types.js';
import type { SimplifiedTipoDocumento } from './simplified.types.js';

/**
 * What a document's flows are, by type (the portal's derivation table, basics/common-terms.md, says the same):
 * - `OWED`: what the buyer pays the seller: the payment details, else the gross less withholdings and split-payment VAT;
 * - `NET_OF_VAT`: reverse-charge self-invoices for purchases from abroad (TD17, TD18, TD19): the foreign supplier is paid
 *   the taxable amount; the VAT is self-assessed by the company and paid to no one as part of this purchase;
 * - `NONE`: documents that move no money between the parties: TD16 integrates the VAT of a domestic reverse-charge
 *   invoice whose own document carries the payable, TD21 (ceiling exceeded) and TD27 (own use, free supplies) have the
 *   company on both sides.
 */
export type FlowRule = 'OWED' | 'NET_OF_VAT' | 'NONE';

/**
 * Self-invoices (autofatture) and the TD29 report are transmitted by the buyer, who documents a purchase: Flusso lists
 * them as RECEIVED, and the company may send them when it is the buyer (or both parties, as in TD21 and TD27).
 *
 * `source` is where each type's rule comes from: the TipoDocumento table of the FatturaPA technical specifications
 * (Specifiche tecniche 1.9, Allegato A, field 2.1.1.1: who issues each type) and, for the flows, the VAT rule the type
 * documents (DPR 633/72 articles, as that table names them).
 */
export const DOCUMENT_TYPE_OF: Record<TipoDocumento | SimplifiedTipoDocumento, { type: DocumentType; sentByBuyer: boolean; flows: FlowRule; source: string }> =
  {
    TD01: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche 1.9 2.1.1.1: fattura, art. 21 DPR 633/72' },
    TD02: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche 1.9 2.1.1.1: acconto/anticipo su fattura' },
    TD03: { type: 'PARCEL', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche 1.9 2.1.1.1: acconto/anticipo su parcella' },
    TD04: {
      type: 'CREDIT_NOTE',
      sentByBuyer: false,
      flows: 'OWED',
      source: 'Spec. tecniche 1.9 2.1.1.1: nota di credito, art. 26 DPR 633/72 (the seller pays back)',
    },
    TD05: { type: 'DEBIT_NOTE', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche 1.9 2.1.1.1: nota di debito, art. 26 DPR 633/72' },
    TD06: { type: 'PARCEL', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche 1.9 2.1.1.1: parcella' },
    // Simplified invoices (FSM10, art. 21-bis DPR 633/72): no payment data, so one flow of the amount VAT included.
    TD07: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche FSM10 2.1.1.1: fattura semplificata, art. 21-bis DPR 633/72' },
    TD08: {
      type: 'CREDIT_NOTE',
      sentByBuyer: false,
      flows: 'OWED',
      source: 'Spec. tecniche FSM10 2.1.1.1: nota di credito semplificata, art. 21-bis c.1 (fattura rettificativa, art. 26)',
    },
    TD09: {
      type: 'DEBIT_NOTE',
      sentByBuyer: false,
      flows: 'OWED',
      source: 'Spec. tecniche FSM10 2.1.1.1: nota di debito semplificata, art. 21-bis c.1 (fattura rettificativa, art. 26)',
    },
    TD16: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'NONE',
      source:
        "Spec. tecniche 1.9 2.1.1.1: integrazione reverse charge interno, art. 17 c.6 (VAT integrated by the buyer; the supplier's invoice carries the payable)",
    },
    TD17: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'NET_OF_VAT',
      source: "Spec. tecniche 1.9 2.1.1.1: servizi dall'estero, art. 17 c.2 (VAT self-assessed, not paid to the supplier)",
    },
    TD18: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'NET_OF_VAT',
      source: 'Spec. tecniche 1.9 2.1.1.1: beni intracomunitari, art. 46 DL 331/93 (VAT self-assessed)',
    },
    TD19: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'NET_OF_VAT', source: 'Spec. tecniche 1.9 2.1.1.1: beni ex art. 17 c.2 (VAT self-assessed)' },
    TD20: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'OWED',
      source: "Spec. tecniche 1.9 2.1.1.1: autofattura di regolarizzazione, art. 6 c.8 D.Lgs. 471/97 (the supplier is owed the invoice's amount)",
    },
    TD21: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'NONE',
      source: 'Spec. tecniche 1.9 2.1.1.1 and check 00472: autofattura per splafonamento, same subject on both sides',
    },
    TD22: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'OWED',
      source: 'Spec. tecniche 1.9 2.1.1.1: estrazione beni da deposito IVA, art. 50-bis c.6 DL 331/93',
    },
    TD23: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'OWED',
      source: 'Spec. tecniche 1.9 2.1.1.1: estrazione beni da deposito IVA con versamento, art. 50-bis c.6',
    },
    TD24: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche 1.9 2.1.1.1: fattura differita, art. 21 c.4 lett. a' },
    TD25: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED', source: 'Spec. tecniche 1.9 2.1.1.1: fattura differita, art. 21 c.4 terzo periodo lett. b' },
    TD26: {
      type: 'INVOICE',
      sentByBuyer: false,
      flows: 'OWED',
      source: 'Spec. tecniche 1.9 2.1.1.1: cessione di beni ammortizzabili e passaggi interni, art. 36 c.5',
    },
    TD27: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'NONE',
      source: 'Spec. tecniche 1.9 2.1.1.1 and check 00472: autoconsumo o cessioni gratuite senza rivalsa, no money between the parties',
    },
    TD28: {
      type: 'SELF_INVOICE',
      sentByBuyer: true,
      flows: 'OWED',
      source: 'Spec. tecniche 1.9 2.1.1.1 and check 00473: acquisti da San Marino con IVA (paper invoice; the supplier is paid with the VAT)',
    },
    TD29: {
      type: 'OTHER',
      sentByBuyer: true,
      flows: 'OWED',
      source: 'Spec. tecniche 1.9 2.1.1.1: comunicazione per omessa o irregolare fatturazione, art. 6 c.8 D.Lgs. 471/97',
    },
  };

/** A case of the derivation: what it reads in the file, what it makes of it, and where the rule comes from. */
export interface DerivationRule {
  case: string;
  rule: string;
  source: string;
}

/**
 * How amounts and flows come from the file, case by case: the table the portal shows (basics/common-terms.md, "From an
 * e-invoice") and derive.ts applies; derive.spec.ts has a test per case. Type-dependent flow rules are DOCUMENT_TYPE_OF's.
 */
export const DERIVATION_RULES: readonly DerivationRule[] = [
  {
    case: 'gross amount',
    rule: 'ImportoTotaleDocumento; without it, the VAT summary (ImponibileImporto + Imposta of every rate) plus Arrotondamento',
    source: 'Spec. tecniche 1.9 2.1.1.9, 2.2.2.5, 2.2.2.6',
  },
  { case: 'VAT amount', rule: 'the Imposta of the VAT summary, every rate', source: 'Spec. tecniche 1.9 2.2.2.6' },
  {
    case: 'withholding (DatiRitenuta)',
    rule: 'the gross keeps it; the flow without payment data is the gross less ImportoRitenuta; an ImportoTotaleDocumento equal to the summary less the withholding is read as the summary',
    source: 'Spec. tecniche 1.9 2.1.1.5; art. 25 DPR 600/73 (the buyer withholds and pays the treasury)',
  },
  {
    case: 'stamp duty (DatiBollo)',
    rule: 'not added: ImportoBollo declares the duty; charged to the buyer, it is a line (Natura N1) and so in the summary',
    source: 'Spec. tecniche 1.9 2.1.1.6; art. 15 DPR 633/72 (N1)',
  },
  {
    case: 'pension fund (DatiCassaPrevidenziale)',
    rule: 'in the gross through the summary (its ImportoContributoCassa is in the ImponibileImporto of its rate, check 00422)',
    source: 'Spec. tecniche 1.9 2.1.1.7; check 00422',
  },
  {
    case: 'split payment (EsigibilitaIVA S)',
    rule: 'the flow without payment data is the gross less the VAT of the S summaries: the public administration pays that VAT to the treasury',
    source: 'Spec. tecniche 1.9 2.2.2.7; art. 17-ter DPR 633/72',
  },
  {
    case: 'reverse charge by the seller (Natura N6.x)',
    rule: 'no VAT in the summary, so gross = taxable and the buyer owes it all; the buyer integrates the VAT with TD16–TD19',
    source: 'Spec. tecniche 1.9 2.2.2.2; art. 17 c.5–6 DPR 633/72; check 00420',
  },
  {
    case: 'reverse-charge self-invoices (TD17, TD18, TD19)',
    rule: 'flows net of VAT: the foreign supplier is paid the taxable, the VAT is self-assessed',
    source: 'DOCUMENT_TYPE_OF TD17–TD19',
  },
  {
    case: 'VAT integration, ceiling, own use (TD16, TD21, TD27)',
    rule: 'no flows: no money moves between the parties',
    source: 'DOCUMENT_TYPE_OF TD16, TD21, TD27',
  },
  {
    case: 'credit notes (TD04, TD08)',
    rule: 'amounts as written, never negative (a negative total is shown by its size); the flows go the other way (flowsComeIn)',
    source: 'DOCUMENT_TYPE_OF TD04, TD08; art. 26 DPR 633/72',
  },
  {
    case: 'payment data (DatiPagamento)',
    rule: 'one flow per DettaglioPagamento, due on DataScadenzaPagamento, else the reference date plus GiorniTerminiPagamento, else the invoice date',
    source: 'Spec. tecniche 1.9 2.4.2',
  },
  {
    case: 'payment data that does not add up',
    rule: 'repeats of one amount and due date in one DatiPagamento, beyond what is owed, are alternatives counted once; what still exceeds the gross (less the VAT for NET_OF_VAT) is cut in due order, the last flow reduced (flows_exceed_gross_amount)',
    source: "Flusso's rule flows_exceed_gross_amount; the SDI does not compare DatiPagamento with the totals",
  },
  {
    case: 'simplified invoices (FSM10)',
    rule: 'gross = the Importo (VAT included) added up; VAT = each Imposta, else Importo × Aliquota / (100 + Aliquota); one flow of the gross on the invoice date',
    source: 'Spec. tecniche FSM10 2.2.2, 2.2.3; art. 21-bis DPR 633/72',
  },
];

export const PAYMENT_METHOD_OF: Record<ModalitaPagamento, PaymentMethod> = {
  MP01: 'CASH',
  MP02: 'CHECK',
  MP03: 'CHECK',
  MP04: 'CASH',
  MP05: 'TRANSFER',
  MP06: 'CHECK',
  MP07: 'OTHER',
  MP08: 'CARD',
  MP09: 'SDD',
  MP10: 'SDD',
  MP11: 'SDD',
  MP12: 'RIBA',
  MP13: 'OTHER',
  MP14: 'TAX_FORM',
  MP15: 'TRANSFER',
  MP16: 'SDD',
  MP17: 'POSTAL',
  MP18: 'POSTAL',
  MP19: 'SDD',
  MP20: 'SDD',
  MP21: 'SDD',
  MP22: 'OTHER',
  MP23: 'OTHER',
};
