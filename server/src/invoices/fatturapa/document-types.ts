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
 */
export const DOCUMENT_TYPE_OF: Record<TipoDocumento | SimplifiedTipoDocumento, { type: DocumentType; sentByBuyer: boolean; flows: FlowRule }> = {
  TD01: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED' },
  TD02: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED' },
  TD03: { type: 'PARCEL', sentByBuyer: false, flows: 'OWED' },
  TD04: { type: 'CREDIT_NOTE', sentByBuyer: false, flows: 'OWED' },
  TD05: { type: 'DEBIT_NOTE', sentByBuyer: false, flows: 'OWED' },
  TD06: { type: 'PARCEL', sentByBuyer: false, flows: 'OWED' },
  // Simplified invoices (FSM10, art. 21-bis DPR 633/72): no payment data, so one flow of the amount VAT included.
  TD07: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED' },
  TD08: { type: 'CREDIT_NOTE', sentByBuyer: false, flows: 'OWED' },
  TD09: { type: 'DEBIT_NOTE', sentByBuyer: false, flows: 'OWED' },
  TD16: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'NONE' },
  TD17: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'NET_OF_VAT' },
  TD18: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'NET_OF_VAT' },
  TD19: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'NET_OF_VAT' },
  TD20: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'OWED' },
  TD21: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'NONE' },
  TD22: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'OWED' },
  TD23: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'OWED' },
  TD24: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED' },
  TD25: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED' },
  TD26: { type: 'INVOICE', sentByBuyer: false, flows: 'OWED' },
  TD27: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'NONE' },
  TD28: { type: 'SELF_INVOICE', sentByBuyer: true, flows: 'OWED' },
  TD29: { type: 'OTHER', sentByBuyer: true, flows: 'OWED' },
};

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
