/** The FatturaPA formats Flusso reads and writes, and how a file or a JSON invoice says which it is. */
import type { InvoiceFormat } from './model-kit.js';
import { ORDINARY } from './model.js';
import { SIMPLIFIED } from './simplified-model.js';

export const FORMATS: readonly InvoiceFormat[] = [ORDINARY, SIMPLIFIED];

/** The format of a JSON invoice, by its `versione`: FSM10 is the simplified one, anything else is read as ordinary. */
export const formatOfVersione = (versione: unknown): InvoiceFormat => FORMATS.find((f) => f.versions.includes(versione as string)) ?? ORDINARY;

/** The format of an XML file, by its root element's name and namespace; undefined for a root that is neither. */
export const formatOfRoot = (name: string, namespace: string | null): InvoiceFormat | undefined =>
  FORMATS.find((f) => f.root === name && f.namespace === namespace);
