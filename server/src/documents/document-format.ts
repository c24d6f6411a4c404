import type { Direction, DocumentFormat } from './document.enums.js';

/** A public administration's office receives e-invoices under a 6-character code (codice univoco ufficio). */
export const PUBLIC_ADMINISTRATION_CODE = /^[0-9A-Z]{6}$/;

/**
 * The format of a document recorded without a FatturaPA file of its own (an e-invoice takes its file's
 * FormatoTrasmissione), as the SDI would choose it: FPA12 when the buyer is a public administration, that is an issued
 * document whose counterpart has a 6-character destination code (SDI check 00427 ties the two), else FPR12. A received
 * document's buyer is the company, never a public administration on Flusso. FSM10 (simplified invoice) comes only from
 * a file that says so.
 */
export function documentFormat(direction: Direction, counterpart: { destinationCode: string | null } | null): DocumentFormat {
  return direction === 'ISSUED' && PUBLIC_ADMINISTRATION_CODE.test(counterpart?.destinationCode ?? '') ? 'FPA12' : 'FPR12';
}
