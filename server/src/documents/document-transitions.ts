import type { DocumentStatus } from './document.enums.js';

/**
 * The one table of allowed document status changes (also on the portal: basics/common-terms.md, "Document statuses").
 * A DRAFT is issued (CREATED); an e-invoice then follows the SDI: transmitted (SENT), then delivered, not delivered or
 * discarded; a public administration may refuse an invoice delivered to it. Anything else is refused.
 */
export const DOCUMENT_TRANSITIONS: Readonly<Record<DocumentStatus, readonly DocumentStatus[]>> = {
  DRAFT: ['CREATED'],
  CREATED: ['SENT'],
  SENT: ['DELIVERED', 'NOT_DELIVERED', 'DISCARDED'],
  DELIVERED: ['REFUSED'],
  NOT_DELIVERED: [],
  DISCARDED: [],
  REFUSED: [],
};

export const canTransition = (from: DocumentStatus, to: DocumentStatus): boolean => DOCUMENT_TRANSITIONS[from].includes(to);
