/** An e-invoice of either format: ordinary (FPA12, FPR12) or simplified (FSM10), told apart by `versione`. */
import type { Invoice } from './invoice.types.js';
import type { SimplifiedInvoice } from './simplified.types.js';

export type EInvoice = Invoice | SimplifiedInvoice;

export const isSimplified = (invoice: EInvoice): invoice is SimplifiedInvoice => invoice.versione === 'FSM10';
