import type { Row } from '../common/database/bulk-insert.js';
import type { DocumentType } from '../documents/document.enums.js';
import type { PaymentMethod } from '../flows/flow.enums.js';
import { duplicateKey, invoiceToXml, validateInvoiceJson, type Invoice } from '../invoices/fatturapa/index.js';
import type { Indirizzo, ModalitaPagamento, TipoDocumento } from '../invoices/fatturapa/invoice.types.js';
import { formatCents } from './calendar.js';
import type { CategoryPath } from './catalogue.js';
import type { DemoCounterpart } from './counterparts.js';
import { vatSummary, type DocumentLine } from './documents.js';
import { HOME } from './italian-places.js';

/**
 * The FatturaPA file of every e-invoice of the data set, stored as the API stores one (`invoices`: the XML, its JSON
 * form, the ProgressivoInvio of its file name, the SDI's duplicate key), so that every e-invoice document can be read
 * back (GET …/invoice) and shared. Each file says what its document says: number, date, TipoDocumento, the parties,
 * one line per document line, the VAT per rate, the total and one DettaglioPagamento per flow. The company transmits
 * the invoices it issues and its self-invoices (TD17, reverse charge on a foreign supplier's service); suppliers
 * transmit the rest, which reached the company through the SDI.
 */

export interface EInvoiceCompany {
  id: string;
  name: string;
  /** With its country prefix. */
  vatNumber: string;
}

/** Where the company's files say it is: the companies table keeps no address. */
const COMPANY_OFFICE: Indirizzo = {
  indirizzo: 'Via del Pratello',
  numero_civico: '8',
  cap: HOME.postalCode,
  comune: HOME.city,
  provincia: HOME.provinceCode!,
  nazione: 'IT',
};

const TIPO_DOCUMENTO: Partial<Record<DocumentType, TipoDocumento>> = {
  INVOICE: 'TD01',
  BILL: 'TD01',
  CREDIT_NOTE: 'TD04',
  DEBIT_NOTE: 'TD05',
  SELF_INVOICE: 'TD17',
};

/** The code each payment method is written with (documents/document-types.ts reads them back). */
const MODALITA: Partial<Record<PaymentMethod, ModalitaPagamento>> = {
  CASH: 'MP01',
  CHECK: 'MP02',
  TRANSFER: 'MP05',
  CARD: 'MP08',
  RIBA: 'MP12',
  SDD: 'MP19',
};

/** What a line of a counterpart's documents is for, by the subcategory the company files them under (else its name). */
const LINE_TEXT: Partial<Record<CategoryPath[1], string>> = {
  Vendite: 'Pranzi di gruppo',
  'Catering ed eventi': 'Servizio di catering per evento',
  'Consegne a domicilio': "Fornitura pasti per la clientela dell'albergo",
  Fornitori: 'Fornitura di generi alimentari',
  'Bevande e vini': 'Fornitura di vini e bevande',
  'Materiali di consumo': 'Materiali di consumo per la ristorazione',
  Manutenzioni: 'Intervento di manutenzione impianti',
  'Piattaforme online': 'Commissioni sulle prenotazioni online',
  'Energia elettrica': 'Fornitura di energia elettrica',
  Gas: 'Fornitura di gas naturale',
  Acqua: 'Servizio idrico integrato',
  'Telefonia e internet': 'Servizi di telefonia e connessione internet',
  'Canone di locazione': 'Canone di locazione del locale',
  Commercialista: 'Consulenza contabile e fiscale',
  'Consulente del lavoro': 'Elaborazione cedolini e adempimenti del personale',
};

const party = (vatNumber: string) => ({ id_paese: vatNumber.slice(0, 2), id_codice: vatNumber.slice(2) });

function companySide(company: EInvoiceCompany) {
  return {
    dati_anagrafici: { id_fiscale_iva: party(company.vatNumber), codice_fiscale: company.vatNumber.slice(2), anagrafica: { denominazione: company.name } },
    sede: COMPANY_OFFICE,
  };
}

function counterpartSide(counterpart: DemoCounterpart) {
  const italian = counterpart.country === 'IT';
  return {
    dati_anagrafici: {
      id_fiscale_iva: party(counterpart.vatNumber),
      ...(counterpart.taxNumber ? { codice_fiscale: counterpart.taxNumber } : {}),
      anagrafica: { denominazione: counterpart.companyName },
    },
    sede: {
      indirizzo: counterpart.address,
      // FatturaPA's CAP is five digits: abroad it is written 00000.
      cap: italian ? counterpart.postalCode : '00000',
      comune: counterpart.city,
      ...(counterpart.provinceCode ? { provincia: counterpart.provinceCode } : {}),
      nazione: counterpart.country,
    },
  };
}

/** The `invoices` row of one e-invoice document of the data set (with its flows, lines and counterpart). */
export function eInvoiceFile(
  company: EInvoiceCompany,
  document: Row,
  flows: readonly Row[],
  lines: readonly DocumentLine[],
  counterpart: DemoCounterpart,
): Row {
  const type = document.type as DocumentType;
  const tipo = TIPO_DOCUMENTO[type];
  if (!tipo) throw new Error(`The demo has no e-invoice of type ${type}`);
  const transmittedByCompany = document.direction === 'ISSUED' || type === 'SELF_INVOICE';
  const fileName = String(document.file_name);
  const progressivo = fileName.slice(fileName.indexOf('_') + 1, -'.xml'.length);
  const format = document.format as 'FPA12' | 'FPR12';
  const seller = document.direction === 'ISSUED' ? companySide(company) : counterpartSide(counterpart);
  const buyer = document.direction === 'ISSUED' ? counterpartSide(counterpart) : companySide(company);
  const text = LINE_TEXT[counterpart.kind.category[1]] ?? counterpart.kind.category[1];
  const json = {
    versione: format,
    fattura_elettronica_header: {
      dati_trasmissione: {
        id_trasmittente: party(transmittedByCompany ? company.vatNumber : counterpart.vatNumber),
        progressivo_invio: progressivo,
        formato_trasmissione: format,
        // The company has no SDI code of its own in the demo: files for it go by PEC (0000000).
        codice_destinatario: document.direction === 'ISSUED' ? counterpart.destinationCode : '0000000',
      },
      cedente_prestatore: {
        ...seller,
        dati_anagrafici: { ...seller.dati_anagrafici, regime_fiscale: seller.sede.nazione === 'IT' ? 'RF01' : 'RF18' },
      },
      cessionario_committente: buyer,
    },
    fattura_elettronica_body: [
      {
        dati_generali: {
          dati_generali_documento: {
            tipo_documento: tipo,
            divisa: 'EUR',
            data: document.creation_date,
            numero: document.number,
            importo_totale_documento: document.gross_amount,
          },
        },
        dati_beni_servizi: {
          dettaglio_linee: lines.map((line, i) => ({
            numero_linea: String(i + 1),
            descrizione: lines.length > 1 ? `${text} (${i + 1} di ${lines.length})` : text,
            prezzo_unitario: formatCents(line.netCents),
            prezzo_totale: formatCents(line.netCents),
            aliquota_iva: `${line.rate}.00`,
          })),
          dati_riepilogo: vatSummary(lines).map((rate) => ({
            aliquota_iva: `${rate.rate}.00`,
            imponibile_importo: formatCents(rate.netCents),
            imposta: formatCents(rate.vatCents),
            esigibilita_iva: 'I',
          })),
        },
        dati_pagamento: [
          {
            condizioni_pagamento: flows.length > 1 ? 'TP01' : 'TP02',
            dettaglio_pagamento: flows.map((flow) => ({
              modalita_pagamento: MODALITA[flow.payment_method as PaymentMethod],
              data_scadenza_pagamento: flow.expected_payment_date,
              importo_pagamento: flow.amount,
            })),
          },
        ],
      },
    ],
  };
  const checked = validateInvoiceJson(json);
  if (!checked.invoice) throw new Error(`The demo's e-invoice ${document.number} is not valid: ${JSON.stringify(checked.problems.slice(0, 3))}`);
  // The demo writes ordinary invoices only (FPR12, FPA12).
  const invoice = checked.invoice as Invoice;
  const status = String(document.status);
  // What the SDI has: a file the company sent (past CREATED) or one a supplier sent it. A CREATED one waits for the worker.
  const atSdi = transmittedByCompany ? !['DRAFT', 'CREATED'].includes(status) : true;
  return {
    document_id: document.id,
    company_id: company.id,
    progressivo_invio: progressivo,
    source: 'xml',
    xml: Buffer.from(invoiceToXml(invoice, { pretty: true }), 'utf8'),
    invoice,
    // A discarded file counts as never sent: its number may be sent again.
    duplicate_key: status === 'DISCARDED' ? null : duplicateKey(invoice),
    reconciliation_identifier: null,
    transmission_requested_at: transmittedByCompany && status !== 'DRAFT' ? document.created_at : null,
    transmission_queued_at: transmittedByCompany && atSdi ? document.created_at : null,
    sent_at: atSdi ? document.created_at : null,
    created_at: document.created_at,
  };
}
