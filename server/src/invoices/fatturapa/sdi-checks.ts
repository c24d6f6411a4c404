/**
 * The checks the SDI applies beyond the XML schema (its "notifica di scarto" codes, ../shared/fatturapa/SDI-CHECKS.md)
 * that a sender can trip, as pure functions over a schema-valid invoice. Each problem carries the SDI's error code, so
 * an integrator finds it in the SDI's own documentation, and points at the element.
 *
 * Left out: the identifiers' existence in the tax registry (00300–00306: the SDI asks the Anagrafe Tributaria; even
 * the official examples use made-up numbers), the recipient code's existence (00311, 00312, 00398, 00399), duplicates
 * (00002, 00404: they need the stored documents, the HTTP layer checks 00404) and the file name (00001: Flusso makes it).
 */
import { abs, multiply, toUnits, units } from './decimal.js';
import { DOCUMENT_TYPE_OF } from './document-types.js';
import type { DettaglioLinee, FatturaElettronicaBody, Invoice, ScontoMaggiorazione, TipoDocumento } from './invoice.types.js';
import { isSimplified, type EInvoice } from './e-invoice.js';
import { FORMATS } from './formats.js';
import { GENERIC_NATURA } from './model.js';
import { companyIsBuyer, companyIsSeller, type CompanyIdentity, vatNumber } from './parties.js';
import { fieldsOf } from './schema-walk.js';
import { simplifiedChecks } from './simplified-checks.js';
import { todayInRome } from '../../common/validation/calendar-date.js';

export interface SdiProblem {
  /** The SDI error code (`00423`); null for Flusso's own rule that the company is the one sending the invoice. */
  code: string | null;
  pointer: string;
  path: string;
  message: string;
}

const XML_NAME = new Map(FORMATS.flatMap((format) => Object.values(format.groups).flatMap((group) => fieldsOf(group).map((f) => [f.json, f.xml] as const))));

/** A problem at a JSON path (the XML path follows from the model's names). */
function problem(code: string | null, segments: (string | number)[], message: string): SdiProblem {
  const pointer = segments.map((s) => `/${s}`).join('');
  const path = segments.map((s) => `/${typeof s === 'number' ? s : s === 'versione' ? '@versione' : (XML_NAME.get(s) ?? s)}`).join('');
  return { code, pointer, path, message };
}

const ZERO = 0n;
const CENT = units('0.01');
const EURO = units('1.00');
const rate = (value: string) => toUnits(value);
const isZero = (value: string) => rate(value) === ZERO;
/** Rates and natures are compared as numbers: "22.00" and "22.0" are one rate. */
const rateKey = (value: string) => rate(value).toString();

/** Types for which a non-zero rate may carry a Natura (internal reverse charge: the VAT is integrated). */
const NATURA_WITH_RATE_ALLOWED: TipoDocumento[] = ['TD16'];
// 00471, 00472, 00473: the type lists of the SDI's controls list (Specifiche tecniche FatturaPA 1.8, "Elenco dei
// controlli"), as FatturaElettronica.NET applies them: TD28 (purchases from San Marino) has a foreign seller other than
// the buyer, TD27 (own use, free supplies) has the company on both sides as TD21 does.
const SELLER_BUYER_DIFFERENT: TipoDocumento[] = ['TD01', 'TD02', 'TD03', 'TD06', 'TD16', 'TD17', 'TD18', 'TD19', 'TD20', 'TD24', 'TD25', 'TD28'];
const SELLER_BUYER_SAME: TipoDocumento[] = ['TD21', 'TD27'];
const FOREIGN_SELLER: TipoDocumento[] = ['TD17', 'TD18', 'TD19', 'TD28'];
const BUYER_VAT_REQUIRED: TipoDocumento[] = ['TD16', 'TD17', 'TD18', 'TD19', 'TD20', 'TD22', 'TD23'];

/** The line total the SDI expects: unit price × quantity after the line's discounts and surcharges, in order. */
export function expectedLineTotal(line: DettaglioLinee): bigint {
  let price = toUnits(line.prezzo_unitario);
  for (const change of line.sconto_maggiorazione ?? []) price += discount(change, price);
  return multiply(price, toUnits(line.quantita ?? '1.00'));
}

function discount(change: ScontoMaggiorazione, price: bigint): bigint {
  const amount =
    change.importo !== undefined ? toUnits(change.importo) : change.percentuale !== undefined ? (price * toUnits(change.percentuale)) / units('100') : ZERO;
  return change.tipo === 'SC' ? -amount : amount;
}

function bodyChecks(invoice: Invoice, body: FatturaElettronicaBody, b: number, today: string): SdiProblem[] {
  const problems: SdiProblem[] = [];
  const base = ['fattura_elettronica_body', b];
  const general = body.dati_generali.dati_generali_documento;
  const doc = [...base, 'dati_generali', 'dati_generali_documento'];
  const type = general.tipo_documento;
  const lines = body.dati_beni_servizi.dettaglio_linee;
  const summaries = body.dati_beni_servizi.dati_riepilogo;
  const funds = general.dati_cassa_previdenziale ?? [];
  const linePath = (i: number, ...rest: string[]) => [...base, 'dati_beni_servizi', 'dettaglio_linee', i, ...rest];
  const summaryPath = (i: number, ...rest: string[]) => [...base, 'dati_beni_servizi', 'dati_riepilogo', i, ...rest];
  const fundPath = (i: number, ...rest: string[]) => [...doc, 'dati_cassa_previdenziale', i, ...rest];
  const rateAllowsNatura = NATURA_WITH_RATE_ALLOWED.includes(type);

  if (!/\d/.test(general.numero)) problems.push(problem('00425', [...doc, 'numero'], `The invoice number "${general.numero}" must contain at least one digit`));
  if (general.data.slice(0, 10) > today)
    problems.push(problem('00403', [...doc, 'data'], `The invoice date ${general.data} is in the future (today is ${today} in Italy)`));
  (body.dati_generali.dati_fatture_collegate ?? []).forEach((linked, i) => {
    if (linked.data && linked.data.slice(0, 10) > general.data.slice(0, 10)) {
      problems.push(
        problem(
          '00418',
          [...base, 'dati_generali', 'dati_fatture_collegate', i, 'data'],
          `The linked invoice ${linked.id_documento} is dated ${linked.data}, after this invoice (${general.data})`,
        ),
      );
    }
  });

  const rated = [
    ...lines.map((l, i) => ({
      aliquota: l.aliquota_iva,
      natura: l.natura,
      ritenuta: l.ritenuta,
      at: (f: string) => linePath(i, f),
      what: `Line ${l.numero_linea}`,
      zero: '00400',
      nonZero: '00401',
    })),
    ...funds.map((c, i) => ({
      aliquota: c.aliquota_iva,
      natura: c.natura,
      ritenuta: c.ritenuta,
      at: (f: string) => fundPath(i, f),
      what: `The pension fund contribution ${c.tipo_cassa}`,
      zero: '00413',
      nonZero: '00414',
    })),
  ];
  for (const r of rated) {
    if (isZero(r.aliquota) && !r.natura) problems.push(problem(r.zero, r.at('natura'), `${r.what} has VAT rate 0.00: give its Natura (why no VAT is charged)`));
    if (!isZero(r.aliquota) && r.natura && !rateAllowsNatura) {
      problems.push(problem(r.nonZero, r.at('natura'), `${r.what} has VAT rate ${r.aliquota}: Natura ${r.natura} is only for a rate of 0.00`));
    }
    if (rate(r.aliquota) > ZERO && rate(r.aliquota) < EURO) {
      problems.push(problem('00424', r.at('aliquota_iva'), `${r.what}: the VAT rate ${r.aliquota} must be a percentage (22.00, not 0.22)`));
    }
  }
  summaries.forEach((s, i) => {
    if (isZero(s.aliquota_iva) && !s.natura) problems.push(problem('00429', summaryPath(i, 'natura'), 'A VAT summary with rate 0.00 needs a Natura'));
    if (!isZero(s.aliquota_iva) && s.natura && !rateAllowsNatura) {
      problems.push(problem('00430', summaryPath(i, 'natura'), `A VAT summary with rate ${s.aliquota_iva} can't have a Natura (${s.natura})`));
    }
    if (rate(s.aliquota_iva) > ZERO && rate(s.aliquota_iva) < EURO) {
      problems.push(problem('00424', summaryPath(i, 'aliquota_iva'), `The VAT rate ${s.aliquota_iva} must be a percentage (22.00, not 0.22)`));
    }
    if (s.natura?.startsWith('N6') && s.esigibilita_iva === 'S') {
      problems.push(problem('00420', summaryPath(i, 'esigibilita_iva'), `Reverse charge (Natura ${s.natura}) can't use split payment (EsigibilitaIVA S)`));
    }
    const expectedVat = (toUnits(s.imponibile_importo) * rate(s.aliquota_iva)) / units('100');
    const roundedVat = ((abs(expectedVat) + units('0.005')) / CENT) * CENT * (expectedVat < ZERO ? -1n : 1n);
    if (abs(roundedVat - toUnits(s.imposta)) > CENT) {
      problems.push(
        problem(
          '00421',
          summaryPath(i, 'imposta'),
          `The VAT of the ${s.aliquota_iva}% summary is ${s.imposta}; ${s.imponibile_importo} × ${s.aliquota_iva}% is ${formatUnits(roundedVat)}`,
        ),
      );
    }
  });

  const withholdingNeeded = rated.find((r) => r.ritenuta === 'SI');
  if (withholdingNeeded && !(general.dati_ritenuta ?? []).length) {
    const code = lines.some((l) => l.ritenuta === 'SI') ? '00411' : '00415';
    problems.push(problem(code, [...doc, 'dati_ritenuta'], `${withholdingNeeded.what} is subject to withholding (Ritenuta SI): give DatiRitenuta`));
  }

  // Rates and natures used by lines and contributions must be exactly those of the summary.
  const usedRates = new Set(rated.map((r) => rateKey(r.aliquota)));
  const summaryRates = new Set(summaries.map((s) => rateKey(s.aliquota_iva)));
  const rateName = (key: string) => (Number(key) / 1e8).toFixed(2);
  for (const key of usedRates)
    if (!summaryRates.has(key))
      problems.push(problem('00419', summaryPath(summaries.length), `No VAT summary for the rate ${rateName(key)}% used in the lines`));
  for (const key of summaryRates) {
    if (!usedRates.has(key))
      problems.push(
        problem(
          '00443',
          summaryPath(
            summaries.findIndex((s) => rateKey(s.aliquota_iva) === key),
            'aliquota_iva',
          ),
          `The summary's rate ${rateName(key)}% is used by no line`,
        ),
      );
  }
  const usedNatures = new Set(rated.map((r) => r.natura).filter(Boolean));
  const summaryNatures = new Set(summaries.map((s) => s.natura).filter(Boolean));
  for (const n of usedNatures)
    if (!summaryNatures.has(n)) problems.push(problem('00444', summaryPath(summaries.length), `No VAT summary for the Natura ${n} used in the lines`));
  for (const n of summaryNatures) {
    if (!usedNatures.has(n))
      problems.push(
        problem(
          '00444',
          summaryPath(
            summaries.findIndex((s) => s.natura === n),
            'natura',
          ),
          `The summary's Natura ${n} is used by no line`,
        ),
      );
  }
  for (const r of rated)
    if (r.natura && GENERIC_NATURA.includes(r.natura))
      problems.push(
        problem('00445', r.at('natura'), `${r.what}: Natura ${r.natura} is no longer accepted since 2021; use one of its sub-codes (${r.natura}.1…)`),
      );
  summaries.forEach((s, i) => {
    if (s.natura && GENERIC_NATURA.includes(s.natura))
      problems.push(problem('00445', summaryPath(i, 'natura'), `Natura ${s.natura} is no longer accepted since 2021; use one of its sub-codes`));
  });

  // Totals: each line's total, then each rate's taxable amount (1 euro of tolerance, as the SDI).
  lines.forEach((line, i) => {
    const expected = expectedLineTotal(line);
    if (abs(expected - toUnits(line.prezzo_totale)) > CENT) {
      problems.push(
        problem(
          '00423',
          linePath(i, 'prezzo_totale'),
          `Line ${line.numero_linea}: PrezzoTotale is ${line.prezzo_totale}; unit price × quantity after discounts is ${formatUnits(expected)}`,
        ),
      );
    }
  });
  // Per rate, as the SDI adds them up: zero-rated lines of every Natura together.
  const groupKey = (aliquota: string) => rateKey(aliquota);
  const computed = new Map<string, bigint>();
  const add = (key: string, amount: bigint) => computed.set(key, (computed.get(key) ?? ZERO) + amount);
  for (const line of lines) add(groupKey(line.aliquota_iva), toUnits(line.prezzo_totale));
  for (const fund of funds) add(groupKey(fund.aliquota_iva), toUnits(fund.importo_contributo_cassa));
  const declared = new Map<string, { taxable: bigint; index: number }>();
  summaries.forEach((s, i) => {
    const key = groupKey(s.aliquota_iva);
    const entry = declared.get(key) ?? { taxable: ZERO, index: i };
    entry.taxable += toUnits(s.imponibile_importo) - (s.arrotondamento ? toUnits(s.arrotondamento) : ZERO);
    declared.set(key, entry);
  });
  for (const [key, { taxable, index }] of declared) {
    const expected = computed.get(key) ?? ZERO;
    if (abs(expected - taxable) > EURO) {
      const s = summaries[index];
      problems.push(
        problem(
          '00422',
          summaryPath(index, 'imponibile_importo'),
          `The taxable amount of the ${s.aliquota_iva}% summary is ${s.imponibile_importo}; its lines and contributions add up to ${formatUnits(expected)}`,
        ),
      );
    }
  }

  // Discounts with neither a percentage nor an amount.
  (general.sconto_maggiorazione ?? []).forEach((s, i) => {
    if (s.percentuale === undefined && s.importo === undefined)
      problems.push(problem('00437', [...doc, 'sconto_maggiorazione', i], 'A document discount or surcharge needs Percentuale or Importo'));
  });
  lines.forEach((line, i) =>
    (line.sconto_maggiorazione ?? []).forEach((s, j) => {
      if (s.percentuale === undefined && s.importo === undefined)
        problems.push(
          problem('00438', linePath(i, 'sconto_maggiorazione', String(j)), `Line ${line.numero_linea}: a discount or surcharge needs Percentuale or Importo`),
        );
    }),
  );

  // Document type rules on the parties.
  const header = invoice.fattura_elettronica_header;
  const sellerVat = vatNumber(header.cedente_prestatore.dati_anagrafici.id_fiscale_iva);
  const buyerId = header.cessionario_committente.dati_anagrafici.id_fiscale_iva;
  const buyerVat = vatNumber(buyerId);
  const typePath = [...doc, 'tipo_documento'];
  if (SELLER_BUYER_DIFFERENT.includes(type) && sellerVat && sellerVat === buyerVat)
    problems.push(problem('00471', typePath, `For ${type} the seller and the buyer must be different subjects`));
  if (SELLER_BUYER_SAME.includes(type) && sellerVat !== buyerVat)
    problems.push(problem('00472', typePath, `For ${type} the seller and the buyer must be the same subject`));
  if (FOREIGN_SELLER.includes(type) && header.cedente_prestatore.dati_anagrafici.id_fiscale_iva.id_paese === 'IT') {
    problems.push(problem('00473', typePath, `For ${type} the seller must be foreign (IdPaese other than IT)`));
  }
  if (type === 'TD21')
    lines.forEach(
      (l, i) => isZero(l.aliquota_iva) && problems.push(problem('00474', linePath(i, 'aliquota_iva'), 'For TD21 every line needs a VAT rate other than 0.00')),
    );
  if (BUYER_VAT_REQUIRED.includes(type) && !buyerId) {
    problems.push(
      problem(
        '00475',
        ['fattura_elettronica_header', 'cessionario_committente', 'dati_anagrafici', 'id_fiscale_iva'],
        `For ${type} the buyer's IdFiscaleIVA is required`,
      ),
    );
  }
  return problems;
}

function formatUnits(value: bigint): string {
  const negative = value < ZERO;
  const cents = (abs(value) + units('0.005')) / CENT;
  const text = `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/**
 * The SDI's checks beyond the schema, and Flusso's rule that the company is the one sending: the seller, or the buyer
 * for self-invoices (SELF_INVOICE types) and TD29. `today` (YYYY-MM-DD, Italy) is for the future-date check.
 */
export function sdiChecks(invoice: EInvoice, company: CompanyIdentity | null, options: { today?: string } = {}): SdiProblem[] {
  const today = options.today ?? todayInRome();
  const problems: SdiProblem[] = isSimplified(invoice)
    ? simplifiedChecks(invoice, today).map((p) => problem(p.code, p.segments, p.message))
    : ordinaryChecks(invoice, today);
  if (company) problems.push(...senderProblems(invoice, company));
  return problems;
}

function ordinaryChecks(invoice: Invoice, today: string): SdiProblem[] {
  const problems: SdiProblem[] = [];
  const header = invoice.fattura_elettronica_header;
  const transmission = header.dati_trasmissione;
  const format = transmission.formato_trasmissione;
  const transmissionPath = ['fattura_elettronica_header', 'dati_trasmissione'];
  if (invoice.versione !== format) {
    problems.push(problem('00428', ['versione'], `versione is ${invoice.versione} but FormatoTrasmissione is ${format}: they must be the same`));
  }
  const codeLength = format === 'FPA12' ? 6 : 7;
  if (transmission.codice_destinatario.length !== codeLength) {
    problems.push(
      problem(
        '00427',
        [...transmissionPath, 'codice_destinatario'],
        `CodiceDestinatario ${transmission.codice_destinatario} must have ${codeLength} characters for ${format}`,
      ),
    );
  }
  if (transmission.pec_destinatario && transmission.codice_destinatario !== '0000000') {
    problems.push(problem('00426', [...transmissionPath, 'pec_destinatario'], 'PECDestinatario is only for CodiceDestinatario 0000000'));
  }
  const buyer = header.cessionario_committente.dati_anagrafici;
  if (transmission.codice_destinatario === 'XXXXXXX' && buyer.id_fiscale_iva?.id_paese === 'IT') {
    problems.push(problem('00313', [...transmissionPath, 'codice_destinatario'], 'CodiceDestinatario XXXXXXX is for foreign buyers, and the buyer is Italian'));
  }
  if (!buyer.id_fiscale_iva && !buyer.codice_fiscale) {
    problems.push(
      problem('00417', ['fattura_elettronica_header', 'cessionario_committente', 'dati_anagrafici'], 'The buyer needs IdFiscaleIVA or CodiceFiscale (or both)'),
    );
  }
  const sellerCountry = header.cedente_prestatore.dati_anagrafici.id_fiscale_iva.id_paese;
  const buyerCountry = buyer.id_fiscale_iva?.id_paese ?? 'IT';
  if (sellerCountry !== 'IT' && buyerCountry !== 'IT') {
    problems.push(
      problem(
        '00476',
        ['fattura_elettronica_header', 'cessionario_committente', 'dati_anagrafici', 'id_fiscale_iva', 'id_paese'],
        'The seller and the buyer can not both be foreign',
      ),
    );
  }
  invoice.fattura_elettronica_body.forEach((body, b) => problems.push(...bodyChecks(invoice, body, b, today)));
  return problems;
}

/** Flusso's rule that the company is the one sending: the seller, or the buyer for the types the buyer sends. */
function senderProblems(invoice: EInvoice, company: CompanyIdentity): SdiProblem[] {
  const type = invoice.fattura_elettronica_body[0]?.dati_generali.dati_generali_documento.tipo_documento;
  const byBuyer = type !== undefined && DOCUMENT_TYPE_OF[type].sentByBuyer;
  if (companyIsSeller(invoice, company) || (byBuyer && companyIsBuyer(invoice, company))) return [];
  const who = byBuyer ? 'the buyer (CessionarioCommittente) or the seller' : 'the seller (CedentePrestatore)';
  const at = byBuyer ? 'cessionario_committente' : 'cedente_prestatore';
  const where = isSimplified(invoice) ? ['fattura_elettronica_header', at] : ['fattura_elettronica_header', at, 'dati_anagrafici'];
  return [problem(null, where, `The company must be ${who} of a ${type} invoice: neither its VAT number nor its tax code is there`)];
}
