import { sample, samples } from '../../../test/fatturapa-oracle.js';
import { DOCUMENT_TYPE_OF, oneInvoicePerRequest, parseInvoiceXml, sdiChecks, validateInvoiceJson, type Invoice } from './index.js';
import { vatNumber } from './parties.js';

const TODAY = '2026-11-23';

function invoiceOf(bytes: Buffer): Invoice {
  const { invoice, problems } = parseInvoiceXml(bytes);
  expect(problems).toEqual([]);
  return invoice as Invoice;
}

/** The company that sends the invoice: the seller, or the buyer of a self-invoice. */
function senderOf(invoice: Invoice) {
  const type = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento.tipo_documento;
  const header = invoice.fattura_elettronica_header;
  const side = DOCUMENT_TYPE_OF[type].sentByBuyer ? header.cessionario_committente : header.cedente_prestatore;
  return { vat_number: vatNumber(side.dati_anagrafici.id_fiscale_iva), tax_code: side.dati_anagrafici.codice_fiscale ?? null };
}

const codes = (invoice: Invoice, company = senderOf(invoice)) => sdiChecks(invoice, company, { today: TODAY }).map((p) => p.code);

describe('SDI checks on the oracle samples', () => {
  it.each(samples('valid').map((s) => [s.name, s.bytes] as const))('%s', (name, bytes) => {
    const invoice = invoiceOf(bytes);
    const problems = sdiChecks(invoice, senderOf(invoice), { today: TODAY });
    if (name === 'IT01234567890_FPR03.xml') {
      // The official sample's first invoice declares 27.00 taxable for lines totalling 25.00 (SDI-CHECKS.md).
      expect(problems).toEqual([
        expect.objectContaining({
          code: '00422',
          pointer: '/fattura_elettronica_body/0/dati_beni_servizi/dati_riepilogo/0/imponibile_importo',
          path: '/FatturaElettronicaBody/0/DatiBeniServizi/DatiRiepilogo/0/ImponibileImporto',
        }),
      ]);
    } else {
      expect(problems).toEqual([]);
    }
  });

  it.each([
    ['sdi_00400_zero_rate_line_without_Natura.xml', ['00400', '00444']],
    ['sdi_00423_PrezzoTotale_not_quantity_times_price.xml', ['00423']],
    ['sdi_00428_versione_attribute_mismatch.xml', ['00428']],
  ])('%s fails with %j', (name, expected) => {
    const invoice = invoiceOf(sample('invalid', name));
    expect([...new Set(codes(invoice))].sort()).toEqual(expected);
  });

  it('refuses files with several invoices: one invoice per request', () => {
    expect(oneInvoicePerRequest(invoiceOf(sample('valid', 'IT01234567890_FPR01.xml')))).toEqual([]);
    expect(oneInvoicePerRequest(invoiceOf(sample('valid', 'constructed_two_bodies_ITBNCMRA80A01D548T.xml')))).toEqual([
      expect.objectContaining({ pointer: '/fattura_elettronica_body/1', path: '/FatturaElettronicaBody/1' }),
    ]);
  });
});

/**
 * Each rule on an invoice edited to trip it, and on the same invoice edited to pass it. The base is the official
 * FPR01 (one 22% line of 5.00, summary 5.00 + 1.10) or the OCA invoice with a pension fund and withholding.
 */
describe('each SDI check', () => {
  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const base = (name = 'IT01234567890_FPR01.xml'): Json => JSON.parse(JSON.stringify(invoiceOf(sample('valid', name))));
  const doc = (j: Json) => j.fattura_elettronica_body[0].dati_generali.dati_generali_documento;
  const line = (j: Json, i = 0) => j.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee[i];
  const summary = (j: Json, i = 0) => j.fattura_elettronica_body[0].dati_beni_servizi.dati_riepilogo[i];
  const header = (j: Json) => j.fattura_elettronica_header;
  const valid = (j: Json): Invoice => {
    const { invoice, problems } = validateInvoiceJson(j);
    expect(problems).toEqual([]);
    return invoice as Invoice;
  };
  /** A zero-rated invoice: the line and the summary at 0.00 with Natura N2.2. */
  const zeroRated = (j: Json) => {
    Object.assign(line(j), { aliquota_iva: '0.00', natura: 'N2.2' });
    Object.assign(summary(j), { aliquota_iva: '0.00', natura: 'N2.2', imposta: '0.00' });
    delete summary(j).esigibilita_iva;
    return j;
  };
  const withFund = () => base('oca_IT01234567890_FPR08.xml');

  const cases: [string, string | null, (j: Json) => Json, (j: Json) => Json][] = [
    ['invoice number without a digit', '00425', (j) => (Object.assign(doc(j), { numero: 'ABC' }), j), (j) => (Object.assign(doc(j), { numero: 'A1' }), j)],
    ['invoice dated in the future', '00403', (j) => (Object.assign(doc(j), { data: '2026-11-24' }), j), (j) => (Object.assign(doc(j), { data: TODAY }), j)],
    [
      'linked invoice dated after the invoice',
      '00418',
      (j) => ((j.fattura_elettronica_body[0].dati_generali.dati_fatture_collegate = [{ id_documento: '1', data: '2015-01-01' }]), j),
      (j) => ((j.fattura_elettronica_body[0].dati_generali.dati_fatture_collegate = [{ id_documento: '1', data: '2014-12-01' }]), j),
    ],
    ['zero-rate line without Natura', '00400', (j) => (delete line(zeroRated(j)).natura, j), (j) => zeroRated(j)],
    ['non-zero line with Natura', '00401', (j) => (Object.assign(line(j), { natura: 'N2.2' }), j), (j) => j],
    [
      'non-zero line with Natura in a TD16 integration',
      '00401',
      (j) => (Object.assign(line(j), { natura: 'N6.9' }), Object.assign(doc(j), { tipo_documento: 'TD01' }), j),
      (j) => {
        Object.assign(line(j), { natura: 'N6.9' });
        Object.assign(summary(j), { natura: 'N6.9' });
        Object.assign(doc(j), { tipo_documento: 'TD16' });
        return swapParties(j);
      },
    ],
    ['zero-rate summary without Natura', '00429', (j) => (delete summary(zeroRated(j)).natura, j), (j) => zeroRated(j)],
    ['non-zero summary with Natura', '00430', (j) => (Object.assign(summary(j), { natura: 'N2.2' }), j), (j) => j],
    [
      'rate written as a fraction',
      '00424',
      (j) => (Object.assign(line(j), { aliquota_iva: '0.22' }), Object.assign(summary(j), { aliquota_iva: '0.22', imposta: '0.01' }), j),
      (j) => j,
    ],
    [
      'reverse charge with split payment',
      '00420',
      (j) => (zeroRated(j), Object.assign(line(j), { natura: 'N6.3' }), Object.assign(summary(j), { natura: 'N6.3', esigibilita_iva: 'S' }), j),
      (j) => (zeroRated(j), Object.assign(line(j), { natura: 'N6.3' }), Object.assign(summary(j), { natura: 'N6.3', esigibilita_iva: 'I' }), j),
    ],
    [
      'VAT that is not taxable × rate',
      '00421',
      (j) => (Object.assign(summary(j), { imposta: '1.12' }), j),
      (j) => (Object.assign(summary(j), { imposta: '1.11' }), j),
    ],
    [
      'taxable amount off the lines by more than 1 euro',
      '00422',
      (j) => (Object.assign(summary(j), { imponibile_importo: '6.01', imposta: '1.32' }), j),
      (j) => (Object.assign(summary(j), { imponibile_importo: '6.00', imposta: '1.32' }), j),
    ],
    [
      'rounding brings the taxable amount back to the lines',
      '00422',
      (j) => (Object.assign(summary(j), { imponibile_importo: '8.00', imposta: '1.76' }), j),
      (j) => (Object.assign(summary(j), { imponibile_importo: '8.00', imposta: '1.76', arrotondamento: '3.00' }), j),
    ],
    [
      'line total that is not price × quantity',
      '00423',
      (j) => (Object.assign(line(j), { prezzo_totale: '5.02' }), j),
      (j) => (Object.assign(line(j), { prezzo_totale: '5.01' }), j),
    ],
    [
      'line total after a discount and a surcharge',
      '00423',
      (j) => (
        Object.assign(line(j), {
          sconto_maggiorazione: [
            { tipo: 'SC', percentuale: '10.00' },
            { tipo: 'MG', importo: '0.10' },
          ],
          prezzo_totale: '4.50',
        }),
        j
      ),
      // 1.00 − 10% = 0.90, + 0.10 = 1.00 a unit, × 5.00 = 5.00 (4.50 leaves the surcharge out).
      (j) => (
        Object.assign(line(j), {
          sconto_maggiorazione: [
            { tipo: 'SC', percentuale: '10.00' },
            { tipo: 'MG', importo: '0.10' },
          ],
          prezzo_totale: '5.00',
        }),
        j
      ),
    ],
    ['line withholding without DatiRitenuta', '00411', (j) => (Object.assign(line(j), { ritenuta: 'SI' }), j), (j) => j],
    [
      'rate of a line with no summary',
      '00419',
      (j) => (j.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee.push({ ...line(j), numero_linea: '2', aliquota_iva: '10.00' }), j),
      (j) => j,
    ],
    [
      'summary rate no line uses',
      '00443',
      (j) => (j.fattura_elettronica_body[0].dati_beni_servizi.dati_riepilogo.push({ aliquota_iva: '10.00', imponibile_importo: '0.00', imposta: '0.00' }), j),
      (j) => j,
    ],
    ['summary Natura no line uses', '00444', (j) => (zeroRated(j), Object.assign(summary(j), { natura: 'N4' }), j), (j) => zeroRated(j)],
    [
      'generic Natura N2',
      '00445',
      (j) => (zeroRated(j), Object.assign(line(j), { natura: 'N2' }), Object.assign(summary(j), { natura: 'N2' }), j),
      (j) => zeroRated(j),
    ],
    [
      'document discount with neither percentage nor amount',
      '00437',
      (j) => ((doc(j).sconto_maggiorazione = [{ tipo: 'SC' }]), j),
      (j) => ((doc(j).sconto_maggiorazione = [{ tipo: 'SC', importo: '1.00' }]), j),
    ],
    ['line discount with neither percentage nor amount', '00438', (j) => ((line(j).sconto_maggiorazione = [{ tipo: 'SC' }]), j), (j) => j],
    ['versione that is not FormatoTrasmissione', '00428', (j) => ((j.versione = 'FPA12'), j), (j) => j],
    [
      'CodiceDestinatario of 6 characters on an FPR12',
      '00427',
      (j) => (Object.assign(header(j).dati_trasmissione, { codice_destinatario: 'ABC123' }), j),
      (j) => j,
    ],
    [
      'PEC with a CodiceDestinatario other than 0000000',
      '00426',
      (j) => (Object.assign(header(j).dati_trasmissione, { pec_destinatario: 'fatture@pec.example.it' }), j),
      (j) => (Object.assign(header(j).dati_trasmissione, { codice_destinatario: '0000000', pec_destinatario: 'fatture@pec.example.it' }), j),
    ],
    [
      'XXXXXXX for an Italian buyer',
      '00313',
      (j) => (
        Object.assign(header(j).dati_trasmissione, { codice_destinatario: 'XXXXXXX' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'IT', id_codice: '09876543210' }),
        j
      ),
      (j) => (
        Object.assign(header(j).dati_trasmissione, { codice_destinatario: 'XXXXXXX' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'DE', id_codice: '123456789' }),
        j
      ),
    ],
    ['buyer without VAT number or tax code', '00417', (j) => (delete header(j).cessionario_committente.dati_anagrafici.codice_fiscale, j), (j) => j],
    [
      'foreign seller and foreign buyer',
      '00476',
      (j) => (
        (header(j).cedente_prestatore.dati_anagrafici.id_fiscale_iva = { id_paese: 'FR', id_codice: '12345678901' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'DE', id_codice: '123456789' }),
        j
      ),
      (j) => ((header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'DE', id_codice: '123456789' }), j),
    ],
    [
      'seller and buyer the same subject on an invoice',
      '00471',
      (j) => ((header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { ...header(j).cedente_prestatore.dati_anagrafici.id_fiscale_iva }), j),
      (j) => j,
    ],
    [
      'TD21 with different seller and buyer',
      '00472',
      (j) => (
        Object.assign(doc(j), { tipo_documento: 'TD21' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'IT', id_codice: '09876543210' }),
        j
      ),
      (j) => (
        Object.assign(doc(j), { tipo_documento: 'TD21' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { ...header(j).cedente_prestatore.dati_anagrafici.id_fiscale_iva }),
        j
      ),
    ],
    [
      'TD27 (own use) with different seller and buyer',
      '00472',
      (j) => (
        Object.assign(doc(j), { tipo_documento: 'TD27' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'IT', id_codice: '09876543210' }),
        j
      ),
      (j) => (
        Object.assign(doc(j), { tipo_documento: 'TD27' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { ...header(j).cedente_prestatore.dati_anagrafici.id_fiscale_iva }),
        j
      ),
    ],
    [
      'TD21 with a zero-rate line',
      '00474',
      (j) => (
        zeroRated(j),
        Object.assign(doc(j), { tipo_documento: 'TD21' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { ...header(j).cedente_prestatore.dati_anagrafici.id_fiscale_iva }),
        j
      ),
      (j) => (
        Object.assign(doc(j), { tipo_documento: 'TD21' }),
        (header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva = { ...header(j).cedente_prestatore.dati_anagrafici.id_fiscale_iva }),
        j
      ),
    ],
    [
      'TD17 from an Italian seller',
      '00473',
      (j) => (Object.assign(doc(j), { tipo_documento: 'TD17' }), swapParties(j, 'IT')),
      (j) => (Object.assign(doc(j), { tipo_documento: 'TD17' }), swapParties(j, 'US')),
    ],
    [
      'TD28 (purchase from San Marino) from an Italian seller',
      '00473',
      (j) => (Object.assign(doc(j), { tipo_documento: 'TD28' }), swapParties(j, 'IT')),
      (j) => (Object.assign(doc(j), { tipo_documento: 'TD28' }), swapParties(j, 'SM')),
    ],
    [
      'TD18 integration with a buyer without VAT number',
      '00475',
      (j) => (
        Object.assign(doc(j), { tipo_documento: 'TD18' }),
        swapParties(j, 'DE'),
        delete header(j).cessionario_committente.dati_anagrafici.id_fiscale_iva,
        j
      ),
      (j) => (Object.assign(doc(j), { tipo_documento: 'TD18' }), swapParties(j, 'DE')),
    ],
    [
      'pension fund at 0% without Natura',
      '00413',
      (j) => (Object.assign(j.fattura_elettronica_body[0].dati_generali.dati_generali_documento.dati_cassa_previdenziale[0], { aliquota_iva: '0.00' }), j),
      (j) => j,
    ],
    ['pension fund at 22% with Natura', '00414', (j) => (Object.assign(doc(j).dati_cassa_previdenziale[0], { natura: 'N4' }), j), (j) => j],
    [
      'pension fund withholding without DatiRitenuta',
      '00415',
      (j) => (
        Object.assign(doc(j).dati_cassa_previdenziale[0], { ritenuta: 'SI' }),
        delete doc(j).dati_ritenuta,
        line(j).ritenuta && delete line(j).ritenuta,
        j
      ),
      (j) => j,
    ],
    [
      'company that is not the seller',
      null,
      (j) => ((header(j).cedente_prestatore.dati_anagrafici.id_fiscale_iva = { id_paese: 'IT', id_codice: '09876543210' }), j),
      (j) => j,
    ],
  ];

  /** Makes the buyer a company of `country` that self-invoices its purchase from the seller, and keeps the seller's numbers for the buyer (the company). */
  function swapParties(j: Json, country = 'US'): Json {
    const seller = header(j).cedente_prestatore.dati_anagrafici;
    header(j).cessionario_committente.dati_anagrafici = { id_fiscale_iva: { ...seller.id_fiscale_iva }, anagrafica: { denominazione: 'Flusso Demo S.r.l.' } };
    seller.id_fiscale_iva = { id_paese: country, id_codice: country === 'IT' ? '09876543210' : '987654321' };
    return j;
  }

  const COMPANY = { vat_number: 'IT01234567890' };
  const fundCases = new Set(['00413', '00414', '00415']);

  it.each(cases.map(([name, code, trip, pass]) => [name, code, trip, pass] as const))('%s: %s', (_, code, trip, pass) => {
    const start = fundCases.has(code ?? '') ? withFund : base;
    const tripped = sdiChecks(valid(trip(start())), COMPANY, { today: TODAY });
    expect(tripped.map((p) => p.code)).toContain(code);
    const problem = tripped.find((p) => p.code === code);
    expect(problem?.pointer).toMatch(/^\/(fattura_elettronica|versione)/);
    expect(problem?.message.length).toBeGreaterThan(15);
    expect(sdiChecks(valid(pass(start())), COMPANY, { today: TODAY }).map((p) => p.code)).not.toContain(code);
  });

  it('matches the company by VAT number with or without IT, or by tax code', () => {
    const invoice = valid(base());
    expect(sdiChecks(invoice, { vat_number: '01234567890' }, { today: TODAY })).toEqual([]);
    expect(sdiChecks(invoice, { vat_number: 'it 01234567890' }, { today: TODAY })).toEqual([]);
    expect(sdiChecks(invoice, { vat_number: 'IT09876543210' }, { today: TODAY }).map((p) => p.code)).toEqual([null]);
    const person = base('oca_ITBNCMRA80A01D548T_20001.xml');
    person.fattura_elettronica_header.cedente_prestatore.dati_anagrafici.codice_fiscale = 'BNCMRA80A01D548T';
    expect(sdiChecks(valid(person), { vat_number: null, tax_code: 'bncmra80a01d548t' }, { today: TODAY })).toEqual([]);
  });

  it('lets the buyer send a self-invoice', () => {
    const selfInvoice = invoiceOf(sample('valid', 'oca_IT10538570960_00004.xml'));
    const buyer = selfInvoice.fattura_elettronica_header.cessionario_committente.dati_anagrafici.id_fiscale_iva;
    expect(sdiChecks(selfInvoice, { vat_number: vatNumber(buyer) }, { today: TODAY })).toEqual([]);
    const ordinary = invoiceOf(sample('valid', 'IT01234567890_FPR01.xml'));
    const ordinaryBuyer = ordinary.fattura_elettronica_header.cessionario_committente.dati_anagrafici;
    expect(sdiChecks(ordinary, { vat_number: null, tax_code: ordinaryBuyer.codice_fiscale }, { today: TODAY }).map((p) => p.code)).toEqual([null]);
  });
});
