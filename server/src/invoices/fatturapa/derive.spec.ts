import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sample } from '../../../test/fatturapa-oracle.js';
import { deriveDocument, invoiceToXml, parseInvoiceXml, validateInvoiceJson, type Invoice } from './index.js';
import { DERIVATION_RULES, DOCUMENT_TYPE_OF, PAYMENT_METHOD_OF } from './document-types.js';
import { exampleInvoice } from '../invoice-example.js';
import { TYPES } from './model.js';
import { SIMPLIFIED_TYPES } from './simplified-model.js';

function invoiceOf(name: string): Invoice {
  const { invoice, problems } = parseInvoiceXml(sample('valid', name));
  expect(problems).toEqual([]);
  return invoice as Invoice;
}

const eur = (amount: string) => ({ amount, currency: 'EUR' });
const flow = (amount: string, expected_payment_date: string, payment_method: string | null) => ({ amount: eur(amount), expected_payment_date, payment_method });

describe('the document derived from an invoice', () => {
  // Facts read from the samples by hand: company = the seller (IT01234567890 in the official ones) unless said.
  const expectations: [string, { vat_number: string | null; tax_code?: string }, Record<string, unknown>][] = [
    [
      'IT01234567890_FPA01.xml',
      { vat_number: 'IT01234567890' },
      {
        number: '123',
        tipo_documento: 'TD01',
        type: 'INVOICE',
        direction: 'ISSUED',
        format: 'FPA12',
        creation_date: '2017-01-18',
        gross_amount: eur('6.10'),
        vat_amount: eur('1.10'),
        flows: [flow('6.10', '2017-02-18', 'CASH')],
      },
    ],
    [
      'IT01234567890_FPR01.xml',
      { vat_number: 'IT01234567890' },
      {
        number: '123',
        type: 'INVOICE',
        direction: 'ISSUED',
        format: 'FPR12',
        creation_date: '2014-12-18',
        gross_amount: eur('6.10'),
        flows: [flow('6.10', '2015-01-30', 'CASH')],
      },
    ],
    [
      // The same invoice seen by its buyer, known by tax code only: a received invoice, the seller as counterpart.
      'IT01234567890_FPR01.xml',
      { vat_number: null, tax_code: '09876543210' },
      {
        direction: 'RECEIVED',
        counterpart: expect.objectContaining({ company_name: "SOCIETA' ALPHA SRL", vat_number: 'IT01234567890', city: 'SASSARI', destination_code: null }),
      },
    ],
    [
      'oca_IT02780790107_11005.xml',
      { vat_number: 'IT02780790107' },
      {
        number: '124',
        direction: 'ISSUED',
        gross_amount: eur('31.72'),
        vat_amount: eur('5.72'),
        flows: [flow('20.00', '2015-04-30', 'TRANSFER'), flow('9.00', '2015-05-30', 'TRANSFER'), flow('1.50', '2015-06-30', 'TRANSFER')],
      },
    ],
    [
      // A credit note without ImportoTotaleDocumento or payment data: the total from the summary, one flow for it.
      'oca_IT01234567890_FPR06.xml',
      { vat_number: 'IT02780790107' },
      {
        number: '123',
        type: 'CREDIT_NOTE',
        direction: 'ISSUED',
        gross_amount: eur('18.30'),
        vat_amount: eur('3.30'),
        flows: [flow('18.30', '2020-01-09', null)],
      },
    ],
    [
      // A fee note with withholding (360.00) and no payment data: the flow is what the buyer pays.
      'oca_IT01234567890_FPR08.xml',
      { vat_number: 'IT02780790107' },
      {
        number: '124',
        type: 'PARCEL',
        direction: 'ISSUED',
        gross_amount: eur('2283.84'),
        vat_amount: eur('411.84'),
        flows: [flow('1923.84', '2020-01-09', null)],
      },
    ],
    [
      // Split payment (EsigibilitaIVA S): the public administration pays the VAT to the treasury itself.
      'oca_IT05979361218_005.xml',
      { vat_number: 'IT05979361218' },
      { number: 'FT/2015/0010', gross_amount: eur('1288.61'), vat_amount: eur('258.19'), flows: [flow('1030.42', '2015-02-16', null)] },
    ],
    [
      // A self-invoice for services bought from a US supplier: RECEIVED, the supplier as counterpart.
      'oca_IT10538570960_00004.xml',
      { vat_number: 'IT10538570960' },
      {
        number: 'SLFEX/2020/00001',
        tipo_documento: 'TD17',
        type: 'SELF_INVOICE',
        direction: 'RECEIVED',
        gross_amount: eur('122.00'),
        vat_amount: eur('22.00'),
        counterpart: expect.objectContaining({ country: 'US' }),
        // The US supplier is paid the taxable amount; the 22.00 of VAT is the company's own reverse charge.
        flows: [flow('100.00', '2020-12-01', null)],
      },
    ],
    [
      'invopop_invoice-irpef.xml',
      { vat_number: null },
      {
        number: 'SAMPLE-001',
        type: 'PARCEL',
        gross_amount: eur('1026.74'),
        vat_amount: eur('356.40'),
        // Payment details of 1,044.40 for a total of 1,026.74: the last instalment is cut to what is left.
        flows: [flow('500.00', '2023-03-02', 'TRANSFER'), flow('526.74', '2023-04-02', 'TRANSFER')],
      },
    ],
    [
      'invopop_invoice-despatch.xml',
      { vat_number: null },
      { number: 'SAMPLE-002', tipo_documento: 'TD24', type: 'INVOICE', gross_amount: eur('976.00'), flows: [flow('976.00', '2025-08-21', null)] },
    ],
    [
      'invopop_invoice-hotel-complex.xml',
      { vat_number: null },
      // Payment terms with a reference date and no days: due on the reference date.
      {
        number: 'INV4-000008',
        gross_amount: eur('248.58'),
        vat_amount: eur('20.31'),
        flows: [flow('223.38', '2025-01-15', 'CASH'), flow('25.20', '2025-02-02', 'CASH')],
      },
    ],
  ];

  it.each(expectations.map(([name, company, facts], i) => [`${i + 1}. ${name}`, name, company, facts] as const))('%s', (_, name, company, facts) => {
    expect(deriveDocument(invoiceOf(name), company)).toMatchObject(facts);
  });

  it('names the buyer, with its SDI code, as the counterpart of an issued invoice', () => {
    expect(deriveDocument(invoiceOf('oca_IT06363391001_00018.xml'), { vat_number: 'IT06363391001' }).counterpart).toEqual({
      company_name: expect.any(String),
      vat_number: expect.stringMatching(/^SM/),
      tax_number: null,
      address: expect.any(String),
      city: expect.any(String),
      postal_code: expect.stringMatching(/^\d{5}$/),
      province_code: null,
      country: 'SM',
      destination_code: expect.stringMatching(/^[A-Z0-9]{7}$/),
    });
  });

  it('derives the same document from the JSON and the XML of one invoice', () => {
    for (const name of ['IT01234567890_FPA01.xml', 'oca_IT02780790107_11005.xml', 'invopop_invoice-irpef.xml', 'oca_IT10538570960_00004.xml']) {
      const fromXml = invoiceOf(name);
      const fromJson = validateInvoiceJson(JSON.parse(JSON.stringify(fromXml))).invoice as Invoice;
      const company = { vat_number: 'IT01234567890' };
      expect(deriveDocument(fromJson, company)).toEqual(deriveDocument(fromXml, company));
      const again = parseInvoiceXml(Buffer.from(invoiceToXml(fromJson))).invoice as Invoice;
      expect(deriveDocument(again, company)).toEqual(deriveDocument(fromXml, company));
    }
  });

  it('maps every TipoDocumento (ordinary and simplified) and every ModalitaPagamento of the model', () => {
    const types = [...Object.keys(TYPES.TipoDocumento.enumeration ?? {}), ...Object.keys(SIMPLIFIED_TYPES.TipoDocumento.enumeration ?? {})];
    expect(Object.keys(DOCUMENT_TYPE_OF).sort()).toEqual(types.sort());
    expect(Object.keys(PAYMENT_METHOD_OF).sort()).toEqual(Object.keys(TYPES.ModalitaPagamento.enumeration ?? {}).sort());
    for (const { type, sentByBuyer } of Object.values(DOCUMENT_TYPE_OF)) if (type === 'SELF_INVOICE') expect(sentByBuyer).toBe(true);
  });

  // A minimal invoice (the official FPR01, 5.00 + 1.10 VAT) as a fee note: 1000.00 + 4% INPS contribution, 22% VAT,
  // 20% withholding on 1040.00 (208.00); the buyer pays 1060.80.
  function feeNote(importoTotale: string | undefined): Invoice {
    const invoice = JSON.parse(JSON.stringify(invoiceOf('IT01234567890_FPR01.xml'))) as Invoice;
    const body = invoice.fattura_elettronica_body[0];
    const general = body.dati_generali.dati_generali_documento;
    general.dati_ritenuta = [{ tipo_ritenuta: 'RT01', importo_ritenuta: '208.00', aliquota_ritenuta: '20.00', causale_pagamento: 'A' }];
    general.importo_totale_documento = importoTotale;
    body.dati_beni_servizi.dati_riepilogo = [{ aliquota_iva: '22.00', imponibile_importo: '1040.00', imposta: '228.80' }];
    delete body.dati_pagamento;
    return invoice;
  }

  it('reads an ImportoTotaleDocumento written net of the withholding as the gross less it, not as the gross', () => {
    // The SDI does not check this total; senders often write what the buyer pays (1060.80) instead of 1268.80.
    for (const total of ['1268.80', '1060.80', undefined]) {
      const derived = deriveDocument(feeNote(total), { vat_number: 'IT01234567890' });
      expect({ total, gross: derived.gross_amount, flows: derived.flows }).toEqual({
        total,
        gross: eur('1268.80'),
        flows: [flow('1060.80', '2014-12-18', null)],
      });
    }
    // Any other total is the sender's word (a document discount, say).
    expect(deriveDocument(feeNote('1200.00'), { vat_number: 'IT01234567890' }).gross_amount).toEqual(eur('1200.00'));
  });

  it('counts once the alternative payment details that repeat the amount due, and keeps instalments', () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    const detail = invoice.fattura_elettronica_body[0].dati_pagamento![0].dettaglio_pagamento[0];
    const payments = (...amounts: string[]) => {
      const copy = JSON.parse(JSON.stringify(invoice)) as Invoice;
      copy.fattura_elettronica_body[0].dati_pagamento![0].dettaglio_pagamento = amounts.map((importo_pagamento, i) => ({
        ...detail,
        modalita_pagamento: 'MP05',
        iban: i % 2 ? 'IT02A0301503200000003517230' : 'IT60X0542811101000000123456',
        importo_pagamento,
      }));
      return deriveDocument(copy, { vat_number: 'IT01234567890' }).flows;
    };
    // Two bank accounts offered for the whole 6.10.
    expect(payments('6.10', '6.10')).toEqual([flow('6.10', '2015-01-30', 'TRANSFER')]);
    // Two instalments of one due date that add up to the total stay two flows.
    expect(payments('3.05', '3.05')).toEqual([flow('3.05', '2015-01-30', 'TRANSFER'), flow('3.05', '2015-01-30', 'TRANSFER')]);
  });

  it('never derives flows above the gross amount: payment details beyond it are cut in due order', () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    const detail = invoice.fattura_elettronica_body[0].dati_pagamento![0].dettaglio_pagamento[0];
    const payments = (...details: [string, string][]) => {
      const copy = JSON.parse(JSON.stringify(invoice)) as Invoice;
      copy.fattura_elettronica_body[0].dati_pagamento![0].dettaglio_pagamento = details.map(([importo_pagamento, data_scadenza_pagamento]) => ({
        ...detail,
        importo_pagamento,
        data_scadenza_pagamento,
      }));
      return deriveDocument(copy, { vat_number: 'IT01234567890' }).flows;
    };
    // One detail larger than the 6.10 gross (a stamp duty charged in the payment only, say).
    expect(payments(['8.10', '2015-01-30'])).toEqual([flow('6.10', '2015-01-30', 'CASH')]);
    // Written out of order: the earlier due dates are kept whole, the later ones cut or dropped.
    expect(payments(['4.00', '2015-03-30'], ['4.00', '2015-01-30'], ['1.00', '2015-04-30'])).toEqual([
      flow('2.10', '2015-03-30', 'CASH'),
      flow('4.00', '2015-01-30', 'CASH'),
    ]);
    // Details that add up are kept as written.
    expect(payments(['4.00', '2015-01-30'], ['2.10', '2015-02-28'])).toEqual([flow('4.00', '2015-01-30', 'CASH'), flow('2.10', '2015-02-28', 'CASH')]);
  });

  it('follows each type rule: reverse-charge purchases from abroad pay the taxable, VAT integrations and own use pay nothing', () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    const body = invoice.fattura_elettronica_body[0];
    const derive = (tipo: string, withPayments: boolean) => {
      const copy = JSON.parse(JSON.stringify(invoice)) as Invoice;
      copy.fattura_elettronica_body[0].dati_generali.dati_generali_documento.tipo_documento =
        tipo as Invoice['fattura_elettronica_body'][0]['dati_generali']['dati_generali_documento']['tipo_documento'];
      if (!withPayments) delete copy.fattura_elettronica_body[0].dati_pagamento;
      return deriveDocument(copy, { vat_number: '09876543210' }).flows.map((f) => f.amount.amount);
    };
    expect(body.dati_beni_servizi.dati_riepilogo.map((r) => [r.imponibile_importo, r.imposta])).toEqual([['5.00', '1.10']]);
    for (const tipo of ['TD17', 'TD18', 'TD19']) {
      expect({ tipo, flows: derive(tipo, false) }).toEqual({ tipo, flows: ['5.00'] });
      // A payment detail of the gross is cut to the taxable: the supplier is never paid the self-assessed VAT.
      expect({ tipo, flows: derive(tipo, true) }).toEqual({ tipo, flows: ['5.00'] });
    }
    for (const tipo of ['TD16', 'TD21', 'TD27']) expect({ tipo, flows: derive(tipo, true) }).toEqual({ tipo, flows: [] });
    for (const tipo of ['TD01', 'TD20', 'TD28']) expect({ tipo, flows: derive(tipo, false) }).toEqual({ tipo, flows: ['6.10'] });
  });

  it('reads a foreign VAT code that repeats its country prefix once (GB + GB99999999999 is GB99999999999)', () => {
    const invoice = JSON.parse(JSON.stringify(invoiceOf('IT01234567890_FPR01.xml'))) as Invoice;
    invoice.fattura_elettronica_header.cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'GB', id_codice: 'GB99999999999' };
    expect(deriveDocument(invoice, { vat_number: 'IT01234567890' }).counterpart?.vat_number).toBe('GB99999999999');
    invoice.fattura_elettronica_header.cessionario_committente.dati_anagrafici.id_fiscale_iva = { id_paese: 'GB', id_codice: '99999999999' };
    expect(deriveDocument(invoice, { vat_number: 'IT01234567890' }).counterpart?.vat_number).toBe('GB99999999999');
  });

  it('counts every self-invoice type as RECEIVED, even when the company sells to itself', () => {
    const invoice = JSON.parse(JSON.stringify(invoiceOf('IT01234567890_FPR01.xml')));
    const header = invoice.fattura_elettronica_header;
    header.cessionario_committente.dati_anagrafici.id_fiscale_iva = { ...header.cedente_prestatore.dati_anagrafici.id_fiscale_iva };
    for (const tipo of ['TD16', 'TD17', 'TD18', 'TD19', 'TD20', 'TD21', 'TD22', 'TD23', 'TD27', 'TD28', 'TD29']) {
      invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento.tipo_documento = tipo;
      const derived = deriveDocument(invoice, { vat_number: 'IT01234567890' });
      expect({ tipo, direction: derived.direction, counterpart: derived.counterpart }).toEqual({ tipo, direction: 'RECEIVED', counterpart: null });
    }
  });
});

describe('the derivation table (DERIVATION_RULES): one test per case not covered above', () => {
  const company = { vat_number: '01234567890' };
  /** The reference example (1500.00 + 330.00 VAT at 22%), without its total and payment terms unless kept. */
  function base(keep: { total?: boolean; payments?: boolean } = {}): Invoice {
    const invoice = structuredClone(exampleInvoice());
    const body = invoice.fattura_elettronica_body[0];
    if (!keep.total) delete body.dati_generali.dati_generali_documento.importo_totale_documento;
    if (!keep.payments) delete body.dati_pagamento;
    return invoice;
  }

  it('has a case for each situation the issue names, each with its source', () => {
    const cases = DERIVATION_RULES.map((r) => r.case).join(' | ');
    for (const word of [
      'withholding',
      'stamp duty',
      'pension fund',
      'split payment',
      'reverse charge',
      'own use',
      'credit notes',
      'does not add up',
      'simplified',
    ])
      expect(cases).toContain(word);
    for (const rule of DERIVATION_RULES) expect(rule.source).not.toBe('');
    for (const entry of Object.values(DOCUMENT_TYPE_OF)) expect(entry.source).toMatch(/^Spec\. tecniche/);
  });

  it('stamp duty: DatiBollo adds nothing; charged to the buyer as an N1 line, it is in the summary and the flow', () => {
    const declared = base({ total: true, payments: true });
    declared.fattura_elettronica_body[0].dati_generali.dati_generali_documento.dati_bollo = { bollo_virtuale: 'SI', importo_bollo: '2.00' };
    expect(deriveDocument(declared, company)).toMatchObject({ gross_amount: eur('1830.00'), flows: [flow('1830.00', '2026-04-01', 'TRANSFER')] });
    const charged = base();
    const body = charged.fattura_elettronica_body[0];
    body.dati_generali.dati_generali_documento.dati_bollo = { bollo_virtuale: 'SI', importo_bollo: '2.00' };
    body.dati_beni_servizi.dettaglio_linee.push({
      numero_linea: '3',
      descrizione: 'Bollo',
      prezzo_unitario: '2.00',
      prezzo_totale: '2.00',
      aliquota_iva: '0.00',
      natura: 'N1',
    });
    body.dati_beni_servizi.dati_riepilogo.push({ aliquota_iva: '0.00', natura: 'N1', imponibile_importo: '2.00', imposta: '0.00' });
    expect(deriveDocument(charged, company)).toMatchObject({
      gross_amount: eur('1832.00'),
      vat_amount: eur('330.00'),
      flows: [flow('1832.00', '2026-03-02', null)],
    });
  });

  it('pension fund: the contribution is in the taxable amount of its rate, so in the gross, the VAT and the flow', () => {
    const invoice = base();
    const body = invoice.fattura_elettronica_body[0];
    body.dati_generali.dati_generali_documento.dati_cassa_previdenziale = [
      { tipo_cassa: 'TC04', al_cassa: '4.00', importo_contributo_cassa: '60.00', imponibile_cassa: '1500.00', aliquota_iva: '22.00' },
    ];
    body.dati_beni_servizi.dati_riepilogo = [{ aliquota_iva: '22.00', imponibile_importo: '1560.00', imposta: '343.20', esigibilita_iva: 'I' }];
    expect(deriveDocument(invoice, company)).toMatchObject({
      gross_amount: eur('1903.20'),
      vat_amount: eur('343.20'),
      flows: [flow('1903.20', '2026-03-02', null)],
    });
  });

  it('reverse charge by the seller (N6.x): no VAT, the buyer owes the taxable', () => {
    const invoice = base();
    const body = invoice.fattura_elettronica_body[0];
    for (const line of body.dati_beni_servizi.dettaglio_linee) Object.assign(line, { aliquota_iva: '0.00', natura: 'N6.7' });
    body.dati_beni_servizi.dati_riepilogo = [{ aliquota_iva: '0.00', natura: 'N6.7', imponibile_importo: '1500.00', imposta: '0.00' }];
    expect(deriveDocument(invoice, company)).toMatchObject({
      gross_amount: eur('1500.00'),
      vat_amount: eur('0.00'),
      flows: [flow('1500.00', '2026-03-02', null)],
    });
  });

  it('credit notes: a CREDIT_NOTE whose amounts are never negative, written negative or not', () => {
    for (const sign of ['', '-']) {
      const invoice = base();
      const body = invoice.fattura_elettronica_body[0];
      body.dati_generali.dati_generali_documento.tipo_documento = 'TD04';
      body.dati_beni_servizi.dati_riepilogo = [{ aliquota_iva: '22.00', imponibile_importo: `${sign}1500.00`, imposta: `${sign}330.00` }];
      expect(deriveDocument(invoice, company)).toMatchObject({
        type: 'CREDIT_NOTE',
        direction: 'ISSUED',
        gross_amount: eur('1830.00'),
        vat_amount: eur('330.00'),
        flows: [flow('1830.00', '2026-03-02', null)],
      });
    }
  });

  it('payment data: each detail due on its date, else the reference date plus the days, else the invoice date', () => {
    const invoice = base();
    invoice.fattura_elettronica_body[0].dati_pagamento = [
      {
        condizioni_pagamento: 'TP01',
        dettaglio_pagamento: [
          { modalita_pagamento: 'MP05', data_scadenza_pagamento: '2026-04-01', importo_pagamento: '600.00' },
          { modalita_pagamento: 'MP12', data_riferimento_termini_pagamento: '2026-03-31', giorni_termini_pagamento: 30, importo_pagamento: '600.00' },
          { modalita_pagamento: 'MP01', importo_pagamento: '630.00' },
        ],
      },
    ];
    expect(deriveDocument(invoice, company).flows).toEqual([
      flow('600.00', '2026-04-01', 'TRANSFER'),
      flow('600.00', '2026-04-30', 'RIBA'),
      flow('630.00', '2026-03-02', 'CASH'),
    ]);
  });
});

describe("the portal's derivation table", () => {
  it('is DERIVATION_RULES, row for row', () => {
    const page = readFileSync(resolve(process.cwd(), 'portal/app/content/basics/common-terms.md'), 'utf8');
    for (const rule of DERIVATION_RULES) expect(page).toContain(`| ${rule.case} | ${rule.rule} | ${rule.source} |`);
  });
});
