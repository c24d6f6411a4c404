/**
 * The FatturaPA module's public face: what the invoice routes, the SDI channel and the demo use. Pure code: no Nest,
 * no database. See ARCHITECTURE.md ("FatturaPA invoices") for how the pieces fit.
 *
 *   parseInvoiceXml(bytes)          XML body → { invoice, problems, refusal }, ordinary (FPA12, FPR12) or simplified (FSM10)
 *   signatureOf(bytes)              the closing XML signature of a stored file as the JSON form's `signature` carries it
 *   XmlPool                         checkInvoiceXml (parse + SDI checks) in child processes, off the event loop
 *   validateInvoiceJson(json)       JSON body → { invoice, problems }
 *   invoiceToXml(invoice)           the XML file of a valid JSON invoice
 *   oneInvoicePerRequest(invoice)   the problem when the file holds several invoices
 *   sdiChecks(invoice, company)     the SDI's checks beyond the schema, with SDI codes
 *   deriveDocument(invoice, company) the facts of the document row, its counterpart and its flows
 *   duplicateKey(invoice)           what the SDI's duplicate rule (00404) compares
 *   invoiceJsonSchemas()            OpenAPI components of the JSON invoice
 */
import { readXml, type XmlRefusal } from './libxml.js';
import type { InvoiceProblem } from './problems.js';
import type { EInvoice } from './e-invoice.js';
import type { CompanyIdentity } from './parties.js';
import { sdiChecks, type SdiProblem } from './sdi-checks.js';
import { readInvoiceTree } from './xml-read.js';
import { XMLDSIG_NAMESPACE } from './model.js';

export type { Invoice } from './invoice.types.js';
export type { SimplifiedInvoice } from './simplified.types.js';
export { isSimplified, type EInvoice } from './e-invoice.js';
export { SIMPLIFIED_NAMESPACE } from './simplified-model.js';
export { SIMPLIFIED_LIMIT } from './simplified-checks.js';
export type { InvoiceProblem } from './problems.js';
export type { XmlRefusal } from './libxml.js';
export { MAX_INVOICE_BYTES } from './libxml.js';
export { validateInvoiceJson } from './validate.js';
export { invoiceToXml } from './xml-write.js';
export { invoiceJsonSchemas, componentName, E_INVOICE_COMPONENT, type JsonSchema } from './openapi.js';
export { FATTURAPA_NAMESPACE, GENERIC_NATURA, NATURA_CODES } from './model.js';
export { sdiChecks, type SdiProblem } from './sdi-checks.js';
export { deriveDocument, type DerivedDocument, type DerivedCounterpart, type DerivedFlow } from './derive.js';
export { DOCUMENT_TYPE_OF, PAYMENT_METHOD_OF } from './document-types.js';
export { XML_LIMITS } from './markup-scan.js';
export { XmlPool, XmlPoolBusy, type XmlPoolSettings } from './xml-pool.js';
export { companyIsBuyer, companyIsSeller, duplicateKey, vatNumber, type CompanyIdentity } from './parties.js';

export interface ParsedInvoiceXml {
  /** The JSON form of the invoice; null when the body was refused or has problems. */
  invoice: EInvoice | null;
  /** Schema problems (elements missing, unexpected or out of order, values out of format), one per problem. */
  problems: InvoiceProblem[];
  /** Why the body could not be read as XML at all (too large, empty, binary, DOCTYPE, not well-formed), else null. */
  refusal: XmlRefusal | null;
}

/** Reads a FatturaPA XML body safely and validates it against the model (the same verdicts as the XML schema). */
export function parseInvoiceXml(bytes: Buffer): ParsedInvoiceXml {
  const read = readXml(bytes);
  if ('refusal' in read) return { invoice: null, problems: [], refusal: read.refusal };
  return { ...readInvoiceTree(read.root), refusal: null };
}

/**
 * The XML signature right below the root of a file, as written (the text readInvoiceTree keeps as `signature`), or
 * undefined. It reads the file without judging its content, so a stored file that today's checks would refuse (one
 * accepted before a rule was added) still gives its signature.
 */
export function signatureOf(bytes: Buffer): string | undefined {
  const read = readXml(bytes);
  if ('refusal' in read) return undefined;
  return read.root.children.find((c) => c.namespace === XMLDSIG_NAMESPACE && c.name === 'Signature')?.source;
}

/** Flusso takes one invoice per request: a file with several FatturaElettronicaBody is refused (spec section 5). */
export function oneInvoicePerRequest(invoice: EInvoice): InvoiceProblem[] {
  const bodies = invoice.fattura_elettronica_body.length;
  if (bodies <= 1) return [];
  return [
    {
      pointer: '/fattura_elettronica_body/1',
      path: '/FatturaElettronicaBody/1',
      kind: 'unexpected',
      message: `The file holds ${bodies} invoices (FatturaElettronicaBody); send one invoice per request`,
    },
  ];
}

export interface CheckedInvoiceXml extends ParsedInvoiceXml {
  /** The SDI's checks for the company, when the file holds one invoice without schema problems; else empty. */
  sdiProblems: SdiProblem[];
}

/**
 * Everything a request's XML body goes through before its document is written: the safe parse, the model's schema
 * validation and, for a file with one valid invoice, the SDI's checks. The work of the XML pool's child processes
 * (xml-worker.ts): the time it takes grows with the file, and never on an event loop that serves other requests.
 */
export function checkInvoiceXml(bytes: Buffer, company: CompanyIdentity | null, options: { today?: string } = {}): CheckedInvoiceXml {
  const parsed = parseInvoiceXml(bytes);
  const one = parsed.invoice && !oneInvoicePerRequest(parsed.invoice).length;
  return { ...parsed, sdiProblems: one && parsed.invoice ? sdiChecks(parsed.invoice, company, options) : [] };
}
