/** Where the generated schema lives, relative to the repository root. */
export const INVOICE_XSD_PATH = 'xsd/fatturapa-1.2.3.flusso.xsd';
