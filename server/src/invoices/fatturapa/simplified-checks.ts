/**
 * The SDI's checks beyond the schema for simplified invoices (FSM10), as pure functions over a schema-valid one. The
 * ordinary invoice's checks (sdi-checks.ts) that have a counterpart in the simplified format apply with the same code;
 * the rest (lines, summaries, withholdings, pension funds, payments) concern blocks FSM10 does not have. Sources:
 * ../shared/fatturapa/SDI-CHECKS.md for the codes, art. 21-bis DPR 633/72 and DM 10 May 2019 for the 400 euro limit.
 */
import { abs, fromUnits, toUnits, units } from './decimal.js';
import type { SimplifiedDatiBeniServizi, SimplifiedFatturaElettronicaBody, SimplifiedInvoice } from './simplified.types.js';
import { vatNumber } from './parties.js';

export interface SimplifiedProblem {
  code: string | null;
  segments: (string | number)[];
  message: string;
}

/**
 * Art. 21-bis c.1 DPR 633/72 (limit raised to 400 euro by DM 10 May 2019): a simplified invoice is for operations of
 * at most 400 euro, VAT included; SDI code 00460. The same paragraph lets "la fattura rettificativa di cui all'articolo
 * 26" be simplified whatever its amount, and its letter h) says what makes one: "il riferimento alla fattura rettificata
 * e le indicazioni specificamente modificate", the block DatiFatturaRettificata (FSM10 2.1.2). So a TD08/TD09 that
 * names its corrected invoice has no limit; one that names none is no art. 26 correction and has TD07's limit
 * (invopop/gobl's FSM10 rules read 00460 the same way). At or under 400 euro such a note is accepted: the FSM10 schema
 * makes the block optional, and neither the SDI's published checks (../shared/fatturapa/SDI-CHECKS.md) nor
 * FatturaElettronica.NET refuse a note without it, so refusing it would turn away a file the SDI delivers.
 */
export const SIMPLIFIED_LIMIT = '400.00';
const NOTES = ['TD08', 'TD09'];

/** Whether the limit applies to a body: always to a TD07, to a note only when it names no corrected invoice. */
const limited = (body: SimplifiedFatturaElettronicaBody): boolean =>
  !NOTES.includes(body.dati_generali.dati_generali_documento.tipo_documento) || !body.dati_generali.dati_fattura_rettificata;

const ZERO = 0n;
const EURO = units('1.00');

/** The VAT a good or service includes: its Imposta, else its amount × rate / (100 + rate), rounded to cents. */
export function includedVat(item: SimplifiedDatiBeniServizi): bigint {
  if (item.dati_iva.imposta !== undefined) return toUnits(item.dati_iva.imposta);
  if (item.dati_iva.aliquota === undefined) return ZERO;
  const rate = toUnits(item.dati_iva.aliquota);
  const exact = (toUnits(item.importo) * rate) / (units('100') + rate);
  const cent = units('0.01');
  const rounded = ((abs(exact) + cent / 2n) / cent) * cent;
  return exact < ZERO ? -rounded : rounded;
}

/** The total of a simplified body: its amounts, VAT included. */
export const simplifiedTotal = (body: SimplifiedFatturaElettronicaBody): bigint =>
  body.dati_beni_servizi.reduce((total, item) => total + toUnits(item.importo), ZERO);

function bodyChecks(body: SimplifiedFatturaElettronicaBody, b: number, today: string): SimplifiedProblem[] {
  const problems: SimplifiedProblem[] = [];
  const base = ['fattura_elettronica_body', b];
  const doc = [...base, 'dati_generali', 'dati_generali_documento'];
  const general = body.dati_generali.dati_generali_documento;
  const add = (code: string | null, segments: (string | number)[], message: string) => problems.push({ code, segments, message });

  if (!/\d/.test(general.numero)) add('00425', [...doc, 'numero'], `The invoice number "${general.numero}" must contain at least one digit`);
  if (general.data.slice(0, 10) > today) add('00403', [...doc, 'data'], `The invoice date ${general.data} is in the future (today is ${today} in Italy)`);
  const corrected = body.dati_generali.dati_fattura_rettificata;
  if (corrected && corrected.data_fr.slice(0, 10) > general.data.slice(0, 10)) {
    add(
      '00418',
      [...base, 'dati_generali', 'dati_fattura_rettificata', 'data_fr'],
      `The corrected invoice ${corrected.numero_fr} is dated ${corrected.data_fr}, after this document (${general.data})`,
    );
  }

  body.dati_beni_servizi.forEach((item, i) => {
    const at = (...rest: string[]) => [...base, 'dati_beni_servizi', i, ...rest];
    const { imposta, aliquota } = item.dati_iva;
    const what = `Good or service ${i + 1}`;
    // The simplified format's specification: the VAT is given as an amount or as a rate (DatiIVA, 2.2.3).
    if (imposta === undefined && aliquota === undefined) {
      add(null, at('dati_iva'), `${what}: give its VAT as Imposta (an amount) or Aliquota (a rate), 0.00 with a Natura when there is none`);
      return;
    }
    // Flusso's rule, so that the document's VAT never exceeds its gross: the VAT an amount includes is part of it.
    if (imposta !== undefined && abs(toUnits(imposta)) > abs(toUnits(item.importo))) {
      add(null, at('dati_iva', 'imposta'), `${what}: its VAT ${imposta} is more than its amount ${item.importo}, which includes it`);
    }
    const noVat = (imposta === undefined || toUnits(imposta) === ZERO) && (aliquota === undefined || toUnits(aliquota) === ZERO);
    if (noVat && !item.natura) add('00400', at('natura'), `${what} has no VAT: give its Natura (why no VAT is charged)`);
    if (!noVat && item.natura) add('00401', at('natura'), `${what} has VAT: Natura ${item.natura} is only for goods and services without VAT`);
    if (aliquota !== undefined && toUnits(aliquota) > ZERO && toUnits(aliquota) < EURO) {
      add('00424', at('dati_iva', 'aliquota'), `${what}: the VAT rate ${aliquota} must be a percentage (22.00, not 0.22)`);
    }
    if (item.natura && ['N2', 'N3'].includes(item.natura)) {
      add('00445', at('natura'), `${what}: Natura ${item.natura} is no longer accepted since 2021; use one of its sub-codes (${item.natura}.1…)`);
    }
  });

  if (limited(body)) {
    const total = simplifiedTotal(body);
    if (abs(total) > toUnits(SIMPLIFIED_LIMIT)) {
      const what =
        general.tipo_documento === 'TD07' ? 'A simplified invoice (TD07)' : `A simplified note (${general.tipo_documento}) that names no corrected invoice`;
      const instead =
        general.tipo_documento === 'TD07'
          ? 'send an ordinary invoice (FPR12)'
          : 'name the invoice it corrects in DatiFatturaRettificata (art. 21-bis c.1 h), or send an ordinary note (FPR12)';
      add(
        '00460',
        [...base, 'dati_beni_servizi'],
        `${what} is for at most ${SIMPLIFIED_LIMIT} euro VAT included (art. 21-bis DPR 633/72); its amounts add up to ${fromUnits(total)}: ${instead}`,
      );
    }
  }
  return problems;
}

/** The SDI's checks of a simplified invoice; `today` (YYYY-MM-DD, Italy) is for the future-date check. */
export function simplifiedChecks(invoice: SimplifiedInvoice, today: string): SimplifiedProblem[] {
  const problems: SimplifiedProblem[] = [];
  const header = invoice.fattura_elettronica_header;
  const transmission = header.dati_trasmissione;
  const transmissionPath = ['fattura_elettronica_header', 'dati_trasmissione'];
  const buyerIds = ['fattura_elettronica_header', 'cessionario_committente', 'identificativi_fiscali'];
  const add = (code: string | null, segments: (string | number)[], message: string) => problems.push({ code, segments, message });
  if (invoice.versione !== transmission.formato_trasmissione) {
    add('00428', ['versione'], `versione is ${invoice.versione} but FormatoTrasmissione is ${transmission.formato_trasmissione}: they must be the same`);
  }
  if (transmission.pec_destinatario && transmission.codice_destinatario !== '0000000') {
    add('00426', [...transmissionPath, 'pec_destinatario'], 'PECDestinatario is only for CodiceDestinatario 0000000');
  }
  const buyer = header.cessionario_committente.identificativi_fiscali;
  if (transmission.codice_destinatario === 'XXXXXXX' && buyer.id_fiscale_iva?.id_paese === 'IT') {
    add('00313', [...transmissionPath, 'codice_destinatario'], 'CodiceDestinatario XXXXXXX is for foreign buyers, and the buyer is Italian');
  }
  if (!buyer.id_fiscale_iva && !buyer.codice_fiscale) add('00417', buyerIds, 'The buyer needs IdFiscaleIVA or CodiceFiscale (or both)');
  const seller = header.cedente_prestatore;
  if (seller.id_fiscale_iva.id_paese !== 'IT' && (buyer.id_fiscale_iva?.id_paese ?? 'IT') !== 'IT') {
    add('00476', [...buyerIds, 'id_fiscale_iva', 'id_paese'], 'The seller and the buyer can not both be foreign');
  }
  const sellerVat = vatNumber(seller.id_fiscale_iva);
  if (sellerVat && sellerVat === vatNumber(buyer.id_fiscale_iva)) {
    add('00471', [...buyerIds, 'id_fiscale_iva'], 'The seller and the buyer of a simplified invoice must be different subjects');
  }
  invoice.fattura_elettronica_body.forEach((body, b) => problems.push(...bodyChecks(body, b, today)));
  return problems;
}
