import { invoiceToXml, type Invoice } from '../src/invoices/fatturapa/index.js';
import { exampleInvoice } from '../src/invoices/invoice-example.js';

/**
 * A legal invoice of `lines` lines, written without indentation (25,000 lines: 4,998,902 bytes, 4.77 MiB, under the
 * SDI's 5 MiB): the largest kind of file Flusso must accept in one piece. The seller is the company of `sellerVat`.
 */
const written = new Map<string, string>();

export function manyLinesInvoiceXml(sellerVat: string, lines = 25_000, number = 'FV-2026/0042'): Buffer {
  // Writing 25,000 lines takes seconds: each size is written once, and each request gets its own number.
  const key = `${sellerVat}/${lines}`;
  let xml = written.get(key);
  if (xml === undefined) {
    xml = writeManyLines(sellerVat, lines);
    written.set(key, xml);
  }
  return Buffer.from(xml.replace('<Numero>N</Numero>', `<Numero>${number}</Numero>`));
}

function writeManyLines(sellerVat: string, lines: number): string {
  const invoice = exampleInvoice({ sellerVat, number: 'N' }) as Invoice;
  const body = invoice.fattura_elettronica_body[0];
  body.dati_beni_servizi.dettaglio_linee = Array.from({ length: lines }, (_, i) => ({
    // NumeroLinea has at most 4 digits: a longer invoice numbers its lines again from 1.
    numero_linea: String((i % 9999) + 1),
    descrizione: 'Vite M6',
    prezzo_unitario: '1.00',
    prezzo_totale: '1.00',
    aliquota_iva: '22.00',
  }));
  const net = lines;
  const gross = ((net * 122) / 100).toFixed(2);
  body.dati_beni_servizi.dati_riepilogo = [
    { aliquota_iva: '22.00', imponibile_importo: net.toFixed(2), imposta: ((net * 22) / 100).toFixed(2), esigibilita_iva: 'I' },
  ];
  body.dati_generali.dati_generali_documento.importo_totale_documento = gross;
  body.dati_pagamento![0].dettaglio_pagamento[0].importo_pagamento = gross;
  return invoiceToXml(invoice, { pretty: false });
}

/** One root element with `count` attributes (100,000: 1.09 MB): what made libxml spend minutes in a quadratic check. */
export function manyAttributesXml(count = 100_000): Buffer {
  const attributes = Array.from({ length: count }, (_, i) => ` a${i}="x"`).join('');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><p:FatturaElettronica xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2" versione="FPR12"${attributes}/>`,
  );
}
