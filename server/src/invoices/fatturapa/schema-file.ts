/** Where the generated schemas live, relative to the repository root. */
export const INVOICE_XSD_PATH = 'xsd/fatturapa-1.2.3.flusso.xsd';
export const SIMPLIFIED_XSD_PATH = 'xsd/fatturapa-fsm10-1.0.1.flusso.xsd';
