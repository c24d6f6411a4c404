/**
 * The courtesy copy (copia di cortesia) of an e-invoice: the e-mail a company sends its customer next to the SDI's
 * transmission, readable by a person (HTML and plain text) with the XML attached. The copy has no fiscal value and
 * says so; the original is the file exchanged through the SDI. Pure code: an invoice in, texts out.
 */
import { fromUnits, sum, toUnits } from '../invoices/fatturapa/decimal.js';
import { isSimplified, type EInvoice } from '../invoices/fatturapa/e-invoice.js';
import type { Anagrafica, FatturaElettronicaBody, Indirizzo, Invoice, TipoDocumento } from '../invoices/fatturapa/invoice.types.js';
import type { SimplifiedInvoice, SimplifiedTipoDocumento } from '../invoices/fatturapa/simplified.types.js';

/** What the customer reads for each TipoDocumento, in Italian (the e-mail's language, like the invoice's). */
export const TIPO_DOCUMENTO_LABEL: Record<TipoDocumento | SimplifiedTipoDocumento, string> = {
  TD01: 'Fattura',
  TD02: 'Acconto/anticipo su fattura',
  TD03: 'Acconto/anticipo su parcella',
  TD04: 'Nota di credito',
  TD05: 'Nota di debito',
  TD06: 'Parcella',
  TD07: 'Fattura semplificata',
  TD08: 'Nota di credito semplificata',
  TD09: 'Nota di debito semplificata',
  TD16: 'Integrazione fattura reverse charge interno',
  TD17: "Integrazione/autofattura per acquisto servizi dall'estero",
  TD18: 'Integrazione per acquisto di beni intracomunitari',
  TD19: 'Integrazione/autofattura per acquisto di beni ex art. 17 c. 2 DPR 633/72',
  TD20: 'Autofattura per regolarizzazione e integrazione delle fatture',
  TD21: 'Autofattura per splafonamento',
  TD22: 'Estrazione beni da Deposito IVA',
  TD23: "Estrazione beni da Deposito IVA con versamento dell'IVA",
  TD24: 'Fattura differita (art. 21, c. 4, lett. a)',
  TD25: 'Fattura differita (art. 21, c. 4, terzo periodo, lett. b)',
  TD26: 'Cessione di beni ammortizzabili e passaggi interni',
  TD27: 'Fattura per autoconsumo o cessioni gratuite senza rivalsa',
  TD28: 'Acquisti da San Marino con IVA',
  TD29: 'Comunicazione per omessa o irregolare fatturazione',
};

/** ModalitaPagamento as the customer reads it on the due-date table. */
const MODALITA_PAGAMENTO_LABEL: Record<string, string> = {
  MP01: 'Contanti',
  MP02: 'Assegno',
  MP03: 'Assegno circolare',
  MP04: 'Contanti presso Tesoreria',
  MP05: 'Bonifico',
  MP06: 'Vaglia cambiario',
  MP07: 'Bollettino bancario',
  MP08: 'Carta di pagamento',
  MP09: 'RID',
  MP10: 'RID utenze',
  MP11: 'RID veloce',
  MP12: 'RIBA',
  MP13: 'MAV',
  MP14: 'Quietanza erario',
  MP15: 'Giroconto su conti di contabilità speciale',
  MP16: 'Domiciliazione bancaria',
  MP17: 'Domiciliazione postale',
  MP18: 'Bollettino di c/c postale',
  MP19: 'SEPA Direct Debit',
  MP20: 'SEPA Direct Debit CORE',
  MP21: 'SEPA Direct Debit B2B',
  MP22: 'Trattenuta su somme già riscosse',
  MP23: 'PagoPA',
};

/** Closes both renderings, whatever message the sender wrote. */
const NO_FISCAL_VALUE =
  'Copia di cortesia senza valore fiscale. Il documento valido ai fini fiscali è il file XML trasmesso tramite il Sistema di Interscambio.';

export interface CourtesyCopy {
  /** The default subject, used when the share request has none. */
  subject: string;
  /** The default message, used when the share request has none. */
  message: string;
  /** The whole e-mail as plain text: the message, then the invoice. */
  text: string;
  /** The whole e-mail as HTML: the message, then the invoice as tables. */
  html: string;
}

export interface CourtesyCopyOptions {
  /** The sender's own words; the default message when absent. */
  message?: string;
  /** A temporary link to the XML file, with when it stops working, shown under the message. */
  link?: { url: string; expiresAt: Date };
}

/** One readable name for a party: its company name, or first and last name. */
export function partyName(anagrafica: Anagrafica): string {
  if (anagrafica.denominazione) return anagrafica.denominazione;
  return [anagrafica.titolo, anagrafica.nome, anagrafica.cognome].filter(Boolean).join(' ');
}

/** The copy's default subject and message name the document type and number, as spec section 5 asks. */
export function defaultTexts(invoice: EInvoice): { subject: string; message: string } {
  const document = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento;
  const label = TIPO_DOCUMENTO_LABEL[document.tipo_documento];
  const seller = partyName(
    isSimplified(invoice)
      ? invoice.fattura_elettronica_header.cedente_prestatore
      : invoice.fattura_elettronica_header.cedente_prestatore.dati_anagrafici.anagrafica,
  );
  const title = `${label} n. ${document.numero} del ${italianDate(document.data)}`;
  return {
    subject: `${title} - ${seller}`,
    message: [
      'Gentile cliente,',
      '',
      // A name ending in an abbreviation ("S.r.l.") already closes the sentence.
      `le inviamo la copia di cortesia del documento "${title}" emesso da ${seller}${seller.endsWith('.') ? '' : '.'} Il file XML della fattura elettronica è allegato a questo messaggio.`,
      '',
      "L'originale è trasmesso tramite il Sistema di Interscambio (SdI) dell'Agenzia delle Entrate e lo trova anche nel suo cassetto fiscale; questa copia non ha valore fiscale.",
      '',
      'Cordiali saluti,',
      seller,
    ].join('\n'),
  };
}

/** Renders the courtesy copy of an invoice (its first and only body: Flusso takes one invoice per file). */
export function courtesyCopy(invoice: EInvoice, options: CourtesyCopyOptions = {}): CourtesyCopy {
  const defaults = defaultTexts(invoice);
  const message = options.message ?? defaults.message;
  const view = isSimplified(invoice) ? simplifiedView(invoice) : invoiceView(invoice, invoice.fattura_elettronica_body[0]);
  const linkText = options.link
    ? `Il file XML è scaricabile anche da questo link, valido fino al ${italianDateTime(options.link.expiresAt)}: ${options.link.url}`
    : null;
  return { subject: defaults.subject, message, text: renderText(message, linkText, view), html: renderHtml(message, linkText, options.link?.url, view) };
}

interface InvoiceView {
  title: string;
  seller: string[];
  buyer: string[];
  lines: Array<{ description: string; quantity: string; unitPrice: string; vat: string; total: string }>;
  summary: Array<{ rate: string; taxable: string; tax: string }>;
  total: string;
  withholdings: string[];
  dueDates: Array<{ date: string; method: string; amount: string; iban: string }>;
}

function invoiceView(invoice: Invoice, body: FatturaElettronicaBody): InvoiceView {
  const header = invoice.fattura_elettronica_header;
  const document = body.dati_generali.dati_generali_documento;
  const currency = document.divisa;
  const summary = body.dati_beni_servizi.dati_riepilogo;
  // ImportoTotaleDocumento is optional: without it the total is what the VAT summary adds up to.
  const total = document.importo_totale_documento ?? fromUnits(sum(summary.flatMap((row) => [toUnits(row.imponibile_importo), toUnits(row.imposta)])));
  const seller = header.cedente_prestatore;
  const buyer = header.cessionario_committente;
  return {
    title: `${TIPO_DOCUMENTO_LABEL[document.tipo_documento]} n. ${document.numero} del ${italianDate(document.data)}`,
    seller: [
      partyName(seller.dati_anagrafici.anagrafica),
      `P. IVA ${seller.dati_anagrafici.id_fiscale_iva.id_paese}${seller.dati_anagrafici.id_fiscale_iva.id_codice}`,
      ...(seller.dati_anagrafici.codice_fiscale ? [`C.F. ${seller.dati_anagrafici.codice_fiscale}`] : []),
      ...address(seller.sede),
    ],
    buyer: [
      partyName(buyer.dati_anagrafici.anagrafica),
      ...(buyer.dati_anagrafici.id_fiscale_iva
        ? [`P. IVA ${buyer.dati_anagrafici.id_fiscale_iva.id_paese}${buyer.dati_anagrafici.id_fiscale_iva.id_codice}`]
        : []),
      ...(buyer.dati_anagrafici.codice_fiscale ? [`C.F. ${buyer.dati_anagrafici.codice_fiscale}`] : []),
      ...address(buyer.sede),
    ],
    lines: body.dati_beni_servizi.dettaglio_linee.map((line) => ({
      description: line.descrizione,
      quantity: line.quantita !== undefined ? `${italianNumber(line.quantita)}${line.unita_misura ? ` ${line.unita_misura}` : ''}` : '',
      unitPrice: money(line.prezzo_unitario, currency),
      vat: line.natura ? `${line.natura}` : `${italianNumber(line.aliquota_iva)}%`,
      total: money(line.prezzo_totale, currency),
    })),
    summary: summary.map((row) => ({
      rate: row.natura ? `${italianNumber(row.aliquota_iva)}% (${row.natura})` : `${italianNumber(row.aliquota_iva)}%`,
      taxable: money(row.imponibile_importo, currency),
      tax: money(row.imposta, currency),
    })),
    total: money(total, currency),
    withholdings: (document.dati_ritenuta ?? []).map(
      (w) => `Ritenuta ${w.tipo_ritenuta} (${italianNumber(w.aliquota_ritenuta)}%): ${money(w.importo_ritenuta, currency)}`,
    ),
    dueDates: (body.dati_pagamento ?? []).flatMap((payment) =>
      payment.dettaglio_pagamento.map((detail) => ({
        date: detail.data_scadenza_pagamento ? italianDate(detail.data_scadenza_pagamento) : '—',
        method: MODALITA_PAGAMENTO_LABEL[detail.modalita_pagamento] ?? detail.modalita_pagamento,
        amount: money(detail.importo_pagamento, currency),
        iban: detail.iban ?? '',
      })),
    ),
  };
}

/**
 * A simplified invoice (FSM10) as the same view: one line per good or service at its amount VAT included, with its
 * rate, VAT amount or Natura; no VAT summary, withholdings or due dates (the format has none).
 */
function simplifiedView(invoice: SimplifiedInvoice): InvoiceView {
  const header = invoice.fattura_elettronica_header;
  const body = invoice.fattura_elettronica_body[0];
  const document = body.dati_generali.dati_generali_documento;
  const currency = document.divisa;
  const seller = header.cedente_prestatore;
  const buyerIds = header.cessionario_committente.identificativi_fiscali;
  const buyerName = header.cessionario_committente.altri_dati_identificativi;
  const vat = (id: { id_paese: string; id_codice: string } | undefined) => (id ? [`P. IVA ${id.id_paese}${id.id_codice}`] : []);
  const corrected = body.dati_generali.dati_fattura_rettificata;
  return {
    title: `${TIPO_DOCUMENTO_LABEL[document.tipo_documento]} n. ${document.numero} del ${italianDate(document.data)}${corrected ? ` (rettifica la fattura n. ${corrected.numero_fr} del ${italianDate(corrected.data_fr)})` : ''}`,
    seller: [partyName(seller), ...vat(seller.id_fiscale_iva), ...(seller.codice_fiscale ? [`C.F. ${seller.codice_fiscale}`] : []), ...address(seller.sede)],
    buyer: [
      ...(buyerName ? [partyName(buyerName)] : []),
      ...vat(buyerIds.id_fiscale_iva),
      ...(buyerIds.codice_fiscale ? [`C.F. ${buyerIds.codice_fiscale}`] : []),
      ...(buyerName ? address(buyerName.sede) : []),
    ],
    lines: body.dati_beni_servizi.map((item) => ({
      description: item.descrizione,
      quantity: '',
      unitPrice: money(item.importo, currency),
      vat:
        item.natura ?? (item.dati_iva.aliquota !== undefined ? `${italianNumber(item.dati_iva.aliquota)}%` : money(item.dati_iva.imposta ?? '0.00', currency)),
      total: money(item.importo, currency),
    })),
    summary: [],
    total: money(fromUnits(sum(body.dati_beni_servizi.map((item) => toUnits(item.importo)))), currency),
    withholdings: [],
    dueDates: [],
  };
}

function address(place: Indirizzo): string[] {
  const street = [place.indirizzo, place.numero_civico].filter(Boolean).join(', ');
  const town = [place.cap, place.comune, place.provincia ? `(${place.provincia})` : undefined, place.nazione === 'IT' ? undefined : place.nazione]
    .filter(Boolean)
    .join(' ');
  return [street, town];
}

function renderText(message: string, linkText: string | null, view: InvoiceView): string {
  const out = [message, ''];
  if (linkText) out.push(linkText, '');
  out.push('—'.repeat(40), view.title, '');
  out.push('Cedente/prestatore:', ...view.seller.map((line) => `  ${line}`), '');
  out.push('Cessionario/committente:', ...view.buyer.map((line) => `  ${line}`), '');
  out.push('Righe:');
  for (const line of view.lines) {
    const quantity = line.quantity ? `${line.quantity} x ${line.unitPrice}` : line.unitPrice;
    out.push(`  - ${line.description}: ${quantity}, IVA ${line.vat}, totale ${line.total}`);
  }
  out.push('', 'Riepilogo IVA:');
  for (const row of view.summary) out.push(`  ${row.rate}: imponibile ${row.taxable}, imposta ${row.tax}`);
  out.push('', `Totale documento: ${view.total}`, ...view.withholdings);
  if (view.dueDates.length > 0) {
    out.push('', 'Scadenze:');
    for (const due of view.dueDates) out.push(`  ${due.date}: ${due.amount} (${due.method}${due.iban ? `, IBAN ${due.iban}` : ''})`);
  }
  out.push('', NO_FISCAL_VALUE);
  return out.join('\n') + '\n';
}

function renderHtml(message: string, linkText: string | null, url: string | undefined, view: InvoiceView): string {
  const cell = 'style="border:1px solid #ccc;padding:4px 8px;text-align:left"';
  // Amounts never break between the number and the currency on a narrow screen.
  const right = 'style="border:1px solid #ccc;padding:4px 8px;text-align:right;white-space:nowrap"';
  const table = (head: string[], rows: string[][], alignRightFrom: number) =>
    `<table style="border-collapse:collapse;margin:8px 0"><thead><tr>${head.map((h, i) => `<th ${i >= alignRightFrom ? right : cell}>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
      .map((row) => `<tr>${row.map((value, i) => `<td ${i >= alignRightFrom ? right : cell}>${escapeHtml(value)}</td>`).join('')}</tr>`)
      .join('')}</tbody></table>`;
  const paragraphs = message
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const link = linkText && url ? `<p><a href="${escapeHtml(url)}">${escapeHtml(linkText.slice(0, linkText.lastIndexOf(': ')))}</a></p>` : '';
  const party = (title: string, lines: string[]) =>
    `<td style="vertical-align:top;padding-right:32px"><strong>${escapeHtml(title)}</strong><br>${lines.map(escapeHtml).join('<br>')}</td>`;
  return [
    '<!doctype html><html lang="it"><head><meta charset="utf-8"><title>',
    escapeHtml(view.title),
    '</title></head><body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#222">',
    paragraphs,
    link,
    '<hr>',
    `<h2 style="font-size:18px">${escapeHtml(view.title)}</h2>`,
    `<table><tr>${party('Cedente/prestatore', view.seller)}${party('Cessionario/committente', view.buyer)}</tr></table>`,
    '<h3 style="font-size:15px">Righe</h3>',
    table(
      ['Descrizione', 'Quantità', 'Prezzo unitario', 'IVA', 'Totale'],
      view.lines.map((line) => [line.description, line.quantity, line.unitPrice, line.vat, line.total]),
      1,
    ),
    '<h3 style="font-size:15px">Riepilogo IVA</h3>',
    table(
      ['Aliquota', 'Imponibile', 'Imposta'],
      view.summary.map((row) => [row.rate, row.taxable, row.tax]),
      1,
    ),
    `<p style="font-size:16px"><strong>Totale documento: ${escapeHtml(view.total)}</strong></p>`,
    ...view.withholdings.map((line) => `<p>${escapeHtml(line)}</p>`),
    view.dueDates.length > 0
      ? '<h3 style="font-size:15px">Scadenze</h3>' +
        table(
          ['Scadenza', 'Modalità', 'IBAN', 'Importo'],
          view.dueDates.map((due) => [due.date, due.method, due.iban, due.amount]),
          3,
        )
      : '',
    `<p style="color:#666;font-size:12px">${escapeHtml(NO_FISCAL_VALUE)}</p>`,
    '</body></html>',
  ].join('');
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** `2026-03-12` → `12/03/2026`. */
function italianDate(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${day}/${month}/${year}`;
}

const ROME_DATE_TIME = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `12/03/2026 alle 10:15`, Italian time: the year in full, as in every other date of the copy. */
function italianDateTime(at: Date): string {
  const part = Object.fromEntries(ROME_DATE_TIME.formatToParts(at).map(({ type, value }) => [type, value]));
  return `${part.day}/${part.month}/${part.year} alle ${part.hour}:${part.minute}`;
}

/** Decimal strings of the invoice, exactly (no floating point): `1234.5` → `1.234,50` with at least two decimals. */
function italianNumber(decimal: string, minDecimals = 0): string {
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = decimal.replace(/^[-+]/, '').split('.');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const digits = fraction.replace(/0+$/, '').padEnd(minDecimals, '0');
  return `${negative ? '-' : ''}${grouped}${digits ? `,${digits}` : ''}`;
}

function money(decimal: string, currency: string): string {
  const symbol = currency === 'EUR' ? '€' : currency;
  return `${italianNumber(decimal, 2)} ${symbol}`;
}
