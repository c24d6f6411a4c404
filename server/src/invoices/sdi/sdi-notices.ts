import type { DeliveryStatus, DocumentStatus } from '../../documents/document.enums.js';

/**
 * What the SDI tells the sender about a file, as Flusso records it:
 * - `sent`: the SDI took the file (Flusso's own step: the file is out, the outcome pending);
 * - `RC` ricevuta di consegna: delivered to the recipient;
 * - `MC` mancata consegna (FPR12) / `AT` attestazione di avvenuta trasmissione con impossibilità di recapito (FPA12):
 *   transmitted, but the recipient could not be reached; the invoice is issued all the same;
 * - `NS` notifica di scarto: discarded, with the SDI's error codes; the invoice counts as never issued;
 * - `NE` notifica di esito from a public administration: EC01 accepted, EC02 refused.
 */
export type SdiNotice =
  { kind: 'sent' } | { kind: 'RC' } | { kind: 'MC' } | { kind: 'AT' } | { kind: 'NS'; errors: string[] } | { kind: 'NE'; outcome: 'EC01' | 'EC02' };

/** The document status and delivery_status a notice leads to (null status: the status stays as it is). */
export function effectOf(notice: SdiNotice): { status: DocumentStatus | null; deliveryStatus: DeliveryStatus | null } {
  switch (notice.kind) {
    case 'sent':
      return { status: 'SENT', deliveryStatus: null };
    case 'RC':
      return { status: 'DELIVERED', deliveryStatus: 'RC' };
    case 'MC':
    case 'AT':
      return { status: 'NOT_DELIVERED', deliveryStatus: notice.kind };
    case 'NS':
      return { status: 'DISCARDED', deliveryStatus: `NS ${notice.errors.join(',')}` };
    case 'NE':
      return { status: notice.outcome === 'EC02' ? 'REFUSED' : null, deliveryStatus: `NE ${notice.outcome}` };
  }
}
