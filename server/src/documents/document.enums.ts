export const DOCUMENT_TYPES = [
  'BILL',
  'CREDIT_NOTE',
  'DEBIT_NOTE',
  'INVOICE',
  'OTHER',
  'PARCEL',
  'SELF_INVOICE',
  'DELIVERY_NOTE',
  'QUOTE',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_STATUSES = [
  'DRAFT',
  'CREATED',
  'SENT',
  'DELIVERED',
  'NOT_DELIVERED',
  'DISCARDED',
  'REFUSED',
] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** FatturaPA formats: to public administrations, between private parties, simplified. */
export const DOCUMENT_FORMATS = ['FPA12', 'FPR12', 'FSM10'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** Self-issued invoices (autofatture) count as RECEIVED: they record a purchase. */
export const DIRECTIONS = ['ISSUED', 'RECEIVED'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * The last SDI receipt for an e-invoice: RC ricevuta di consegna, MC mancata consegna, NS notifica di scarto,
 * NE notifica esito (PA), DT decorrenza termini (PA), AT attestazione di avvenuta trasmissione con impossibilità di recapito.
 */
export const DELIVERY_STATUSES = ['RC', 'MC', 'NS', 'NE', 'DT', 'AT'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
