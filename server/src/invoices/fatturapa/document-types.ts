/**
 * How FatturaPA codes become Flusso's words: TipoDocumento → document type, ModalitaPagamento → payment_method.
 * Both tables are on the portal (basics/common-terms.md): change them together.
 */
import type { DocumentType } from '../../documents/document.enums.js';
import type { PaymentMethod } from '../../flows/flow.enums.js';
import type { ModalitaPagamento, TipoDocumento } from './invoice.types.js';

/**
 * Self-invoices (autofatture) and the TD29 report are transmitted by the buyer, who documents a purchase: Flusso lists
 * them as RECEIVED, and the company may send them when it is the buyer (or both parties, as in TD21 and TD27).
 */
export const DOCUMENT_TYPE_OF: Record<TipoDocumento, { type: DocumentType; sentByBuyer: boolean }> = {
  TD01: { type: 'INVOICE', sentByBuyer: false },
  TD02: { type: 'INVOICE', sentByBuyer: false },
  TD03: { type: 'PARCEL', sentByBuyer: false },
  TD04: { type: 'CREDIT_NOTE', sentByBuyer: false },
  TD05: { type: 'DEBIT_NOTE', sentByBuyer: false },
  TD06: { type: 'PARCEL', sentByBuyer: false },
  TD16: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD17: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD18: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD19: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD20: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD21: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD22: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD23: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD24: { type: 'INVOICE', sentByBuyer: false },
  TD25: { type: 'INVOICE', sentByBuyer: false },
  TD26: { type: 'INVOICE', sentByBuyer: false },
  TD27: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD28: { type: 'SELF_INVOICE', sentByBuyer: true },
  TD29: { type: 'OTHER', sentByBuyer: true },
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
