/**
 * One complete, valid FatturaPA invoice (FPR12, TD01, two lines, one VAT rate, payment by bank transfer): the example
 * of the API reference (as JSON and as the XML Flusso writes from it), of the portal's guide and of the tests. The
 * parties are fictitious; the seller's VAT number is a parameter so that the example fits any company.
 */
import type { Invoice, SimplifiedInvoice } from './fatturapa/index.js';

/**
 * The seller's VAT number unless given: that of the Agenzia delle Entrate's example invoices, and of the demo company
 * (demo/catalogue.ts), so that the example is sent to the demo company as it is. Not a real partita IVA: the SDI's
 * checks as Flusso applies them do not look up the register, and its check digit is wrong.
 */
export const EXAMPLE_SELLER_VAT = '01234567890';

export interface ExampleOptions {
  /** The seller's Italian VAT number (11 digits, without IT). */
  sellerVat?: string;
  number?: string;
  date?: string;
  /** The buyer's SDI code: the sandbox's triggers (guides/sending-an-e-invoice) choose the outcome by it. */
  codiceDestinatario?: string;
}

export function exampleInvoice(options: ExampleOptions = {}): Invoice {
  const sellerVat = options.sellerVat ?? EXAMPLE_SELLER_VAT;
  const date = options.date ?? '2026-03-02';
  return {
    versione: 'FPR12',
    fattura_elettronica_header: {
      dati_trasmissione: {
        id_trasmittente: { id_paese: 'IT', id_codice: sellerVat },
        progressivo_invio: '00001',
        formato_trasmissione: 'FPR12',
        codice_destinatario: options.codiceDestinatario ?? 'KRRH6B9',
      },
      cedente_prestatore: {
        dati_anagrafici: {
          id_fiscale_iva: { id_paese: 'IT', id_codice: sellerVat },
          anagrafica: { denominazione: 'Rossi Forniture S.r.l.' },
          regime_fiscale: 'RF01',
        },
        sede: { indirizzo: 'Via Roma', numero_civico: '12', cap: '20121', comune: 'Milano', provincia: 'MI', nazione: 'IT' },
      },
      cessionario_committente: {
        dati_anagrafici: {
          id_fiscale_iva: { id_paese: 'IT', id_codice: '09876543217' },
          codice_fiscale: '09876543217',
          anagrafica: { denominazione: 'Bianchi Costruzioni S.p.A.' },
        },
        sede: { indirizzo: 'Corso Francia', numero_civico: '48', cap: '10138', comune: 'Torino', provincia: 'TO', nazione: 'IT' },
      },
    },
    fattura_elettronica_body: [
      {
        dati_generali: {
          dati_generali_documento: {
            tipo_documento: 'TD01',
            divisa: 'EUR',
            data: date,
            numero: options.number ?? 'FV-2026/0042',
            importo_totale_documento: '1830.00',
            causale: ['Fornitura di materiale edile, marzo 2026'],
          },
        },
        dati_beni_servizi: {
          dettaglio_linee: [
            {
              numero_linea: '1',
              descrizione: 'Cemento Portland 32,5 R, sacchi da 25 kg',
              quantita: '100.00',
              unita_misura: 'SACCO',
              prezzo_unitario: '9.00',
              prezzo_totale: '900.00',
              aliquota_iva: '22.00',
            },
            {
              numero_linea: '2',
              descrizione: 'Trasporto e scarico in cantiere',
              prezzo_unitario: '600.00',
              prezzo_totale: '600.00',
              aliquota_iva: '22.00',
            },
          ],
          dati_riepilogo: [{ aliquota_iva: '22.00', imponibile_importo: '1500.00', imposta: '330.00', esigibilita_iva: 'I' }],
        },
        dati_pagamento: [
          {
            condizioni_pagamento: 'TP02',
            dettaglio_pagamento: [
              { modalita_pagamento: 'MP05', data_scadenza_pagamento: '2026-04-01', importo_pagamento: '1830.00', iban: 'IT60X0542811101000000123456' },
            ],
          },
        ],
      },
    ],
  } as Invoice;
}

/**
 * One complete, valid simplified invoice (FSM10, TD07: a receipt-sized sale, 122.00 euro VAT included, within the
 * 400 euro of art. 21-bis DPR 633/72), from the same seller to a buyer known by its tax code alone, as a shop invoices a
 * private customer: the reference's second example and the tests'.
 */
export function exampleSimplifiedInvoice(options: ExampleOptions = {}): SimplifiedInvoice {
  const sellerVat = options.sellerVat ?? EXAMPLE_SELLER_VAT;
  return {
    versione: 'FSM10',
    fattura_elettronica_header: {
      dati_trasmissione: {
        id_trasmittente: { id_paese: 'IT', id_codice: sellerVat },
        progressivo_invio: '00001',
        formato_trasmissione: 'FSM10',
        codice_destinatario: options.codiceDestinatario ?? '0000000',
      },
      cedente_prestatore: {
        id_fiscale_iva: { id_paese: 'IT', id_codice: sellerVat },
        denominazione: 'Rossi Forniture S.r.l.',
        sede: { indirizzo: 'Via Roma', numero_civico: '12', cap: '20121', comune: 'Milano', provincia: 'MI', nazione: 'IT' },
        regime_fiscale: 'RF01',
      },
      cessionario_committente: { identificativi_fiscali: { codice_fiscale: 'RSSMRA80A01F205X' } },
    },
    fattura_elettronica_body: [
      {
        dati_generali: {
          dati_generali_documento: { tipo_documento: 'TD07', divisa: 'EUR', data: options.date ?? '2026-03-02', numero: options.number ?? 'FS-2026/0007' },
        },
        dati_beni_servizi: [{ descrizione: 'Trapano a percussione 800 W', importo: '122.00', dati_iva: { aliquota: '22.00' } }],
      },
    ],
  };
}
