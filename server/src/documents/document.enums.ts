export const DOCUMENT_TYPES = ['BILL', 'CREDIT_NOTE', 'DEBIT_NOTE', 'INVOICE', 'OTHER', 'PARCEL', 'SELF_INVOICE', 'DELIVERY_NOTE', 'QUOTE', 'F24'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_STATUSES = ['DRAFT', 'CREATED', 'SENT', 'DELIVERED', 'NOT_DELIVERED', 'DISCARDED', 'REFUSED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** FatturaPA formats: to public administrations, between private parties, simplified. */
export const DOCUMENT_FORMATS = ['FPA12', 'FPR12', 'FSM10'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** Self-issued invoices (autofatture) count as RECEIVED: they record a purchase. */
export const DIRECTIONS = ['ISSUED', 'RECEIVED'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * Whether a document's flows are money coming in: an issued document's are (the customer pays), a received one's go
 * out (the company pays its supplier), and a credit note reverses both (the issuer pays the credit back).
 */
export function flowsComeIn(document: { direction: Direction; type: DocumentType }): boolean {
  return (document.direction === 'ISSUED') !== (document.type === 'CREDIT_NOTE');
}

/**
 * The last SDI receipt for an e-invoice: RC ricevuta di consegna, MC mancata consegna, NS notifica di scarto,
 * NE notifica esito (PA), DT decorrenza termini (PA), AT attestazione di avvenuta trasmissione con impossibilità di recapito.
 */
export const SDI_NOTIFICATIONS = ['RC', 'MC', 'NS', 'NE', 'DT', 'AT'] as const;
export type SdiNotification = (typeof SDI_NOTIFICATIONS)[number];

/**
 * `delivery_status`: the notification code, then for a discard the SDI's error codes (`NS 00311,00404`) and for a
 * public administration's outcome its code (`NE EC01` accepted, `NE EC02` refused).
 */
export type DeliveryStatus = SdiNotification | `${SdiNotification} ${string}`;
export const DELIVERY_STATUS_PATTERN = '^(RC|MC|NS|NE|DT|AT)( [0-9A-Z]{4,5}(,[0-9A-Z]{4,5})*)?$';
