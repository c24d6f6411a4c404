import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { OFFICIAL_SIMPLIFIED_XSD_PATH, officialSimplifiedXsd, sample, samples } from '../../../test/fatturapa-oracle.js';
import { deriveDocument, invoiceToXml, isSimplified, parseInvoiceXml, sdiChecks, validateInvoiceJson, type SimplifiedInvoice } from './index.js';
import { schemaValidator } from './libxml.js';
import { SIMPLIFIED_XSD_PATH } from './schema-file.js';
import { SIMPLIFIED } from './simplified-model.js';
import { invoiceTypesSource, SIMPLIFIED_TYPES_PATH } from './types-source.js';
import { invoiceXsd } from './xsd.js';

const OFFICIAL = sample('simplified', 'IT01234567890_FSM10.xml').toString('utf8');
/** The official example with its changes: each replacement must apply, so a test never checks an unchanged file. */
function variant(...replacements: [string | RegExp, string][]): Buffer {
  let text = OFFICIAL;
  for (const [from, to] of replacements) {
    const changed = text.replace(from, to);
    if (changed === text) throw new Error(`The replacement of ${String(from)} changed nothing`);
    text = changed;
  }
  return Buffer.from(text, 'utf8');
}

const ITEM = /<DatiBeniServizi>[\s\S]*<\/DatiBeniServizi>/;
const item = (description: string, amount: string, vat: string, extra = '') =>
  `<DatiBeniServizi><Descrizione>${description}</Descrizione><Importo>${amount}</Importo><DatiIVA>${vat}</DatiIVA>${extra}</DatiBeniServizi>`;

/** Files the official schema accepts and files it refuses, built from the official example; name → bytes. */
const CONSTRUCTED: Record<string, Buffer> = {
  official: Buffer.from(OFFICIAL, 'utf8'),
  credit_note_with_corrected_invoice: variant(
    ['<TipoDocumento>TD07', '<TipoDocumento>TD08'],
    [
      '</DatiGeneraliDocumento>',
      '</DatiGeneraliDocumento><DatiFatturaRettificata><NumeroFR>122</NumeroFR><DataFR>2018-12-20</DataFR><ElementiRettificati>Reso di un articolo</ElementiRettificati></DatiFatturaRettificata>',
    ],
  ),
  two_items_vat_amount_and_natura: variant([
    ITEM,
    item('Consulenza', '122.00', '<Imposta>22.00</Imposta>') + item('Bollo', '2.00', '<Aliquota>0.00</Aliquota>', '<Natura>N1</Natura>'),
  ]),
  buyer_by_tax_code_only: variant([
    /<IdentificativiFiscali>[\s\S]*<\/AltriDatiIdentificativi>/,
    '<IdentificativiFiscali><CodiceFiscale>RSSMRA80A01H501U</CodiceFiscale></IdentificativiFiscali>',
  ]),
  person_seller_with_rea_and_stamp: variant(
    ["<Denominazione>SOCIETA' ALPHA SRL</Denominazione>", '<Nome>MARIO</Nome><Cognome>ROSSI</Cognome>'],
    [
      '<RegimeFiscale>',
      '<IscrizioneREA><Ufficio>SS</Ufficio><NumeroREA>123456</NumeroREA><StatoLiquidazione>LN</StatoLiquidazione></IscrizioneREA><RegimeFiscale>',
    ],
    ['<Numero>123</Numero>', '<Numero>123</Numero><BolloVirtuale>SI</BolloVirtuale>'],
  ),
  attachment_and_issuer: variant(
    ['</CessionarioCommittente>', '</CessionarioCommittente><SoggettoEmittente>TZ</SoggettoEmittente>'],
    ['</FatturaElettronicaBody>', '<Allegati><NomeAttachment>nota.txt</NomeAttachment><Attachment>aGVsbG8=\n</Attachment></Allegati></FatturaElettronicaBody>'],
  ),
  // Refused by the official schema:
  ordinary_type: variant(['<TipoDocumento>TD07', '<TipoDocumento>TD01']),
  amount_without_decimals: variant(['<Importo>25.00</Importo>', '<Importo>25</Importo>']),
  rate_with_one_decimal: variant(['<Aliquota>22.00</Aliquota>', '<Aliquota>22.0</Aliquota>']),
  reverse_charge_natura: variant(['</DatiIVA>', '</DatiIVA><Natura>N6.1</Natura>']),
  name_and_person: variant(["<Denominazione>SOCIETA' ALPHA SRL</Denominazione>", "<Denominazione>SOCIETA' ALPHA SRL</Denominazione><Nome>MARIO</Nome>"]),
  missing_regime: variant(['<RegimeFiscale>RF01</RegimeFiscale>', '']),
  regime_rf20: variant(['<RegimeFiscale>RF01', '<RegimeFiscale>RF20']),
  six_character_recipient: variant(['<CodiceDestinatario>0000000', '<CodiceDestinatario>000000']),
  ordinary_namespace: variant([/fatture\/v1\.0/, 'fatture/v1.2']),
  ordinary_versione: variant(['versione="FSM10"', 'versione="FPR12"']),
  date_with_space: variant(['<Data>2019-01-01</Data>', '<Data>2019-01-01 </Data>']),
  items_out_of_order: variant(['<Importo>25.00</Importo>', ''], ['</DatiIVA>', '</DatiIVA><Importo>25.00</Importo>']),
  no_items: variant([ITEM, '']),
  missing_identifiers_block: variant([/<IdentificativiFiscali>[\s\S]*<\/IdentificativiFiscali>/, '']),
  qualified_child: variant(
    ['<FatturaElettronicaHeader>', '<ns2:FatturaElettronicaHeader>'],
    ['</FatturaElettronicaHeader>', '</ns2:FatturaElettronicaHeader>'],
  ),
};

describe('the generated simplified-invoice (FSM10) schema', () => {
  it('is what the model generates, with its types (run `npm run xsd` after changing the model)', () => {
    expect(readFileSync(resolve(process.cwd(), SIMPLIFIED_XSD_PATH), 'utf8')).toBe(invoiceXsd(SIMPLIFIED));
    expect(readFileSync(resolve(process.cwd(), SIMPLIFIED_TYPES_PATH), 'utf8')).toBe(invoiceTypesSource(SIMPLIFIED));
  });

  it('is not a copy of the official file', () => {
    const hash = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(hash(invoiceXsd(SIMPLIFIED))).not.toBe(hash(readFileSync(OFFICIAL_SIMPLIFIED_XSD_PATH, 'utf8')));
    expect(invoiceXsd(SIMPLIFIED)).not.toContain('xs:import');
  });

  // One verdict: the official schema, the generated one and the API's own reader agree on every file.
  const official = schemaValidator(officialSimplifiedXsd(), OFFICIAL_SIMPLIFIED_XSD_PATH);
  const generated = schemaValidator(invoiceXsd(SIMPLIFIED));
  const files = [
    ...Object.entries(CONSTRUCTED).map(([name, bytes]) => [`constructed ${name}`, bytes] as const),
    ...samples('valid').map((s) => [`ordinary valid/${s.name}`, s.bytes] as const),
  ];

  it.each(files)('agrees with the official schema, and the API with both, on %s', (_, bytes) => {
    const verdict = official(bytes).valid;
    expect(generated(bytes).valid).toBe(verdict);
    // The API reads a file as a simplified invoice exactly when the official schema accepts it (an ordinary file is read
    // as an ordinary invoice, by the other model).
    const read = parseInvoiceXml(bytes);
    expect(read.invoice !== null && isSimplified(read.invoice)).toBe(verdict);
  });

  it('accepts exactly the constructed files meant to be valid', () => {
    const valid = Object.entries(CONSTRUCTED)
      .filter(([, bytes]) => official(bytes).valid)
      .map(([name]) => name);
    expect(valid).toEqual([
      'official',
      'credit_note_with_corrected_invoice',
      'two_items_vat_amount_and_natura',
      'buyer_by_tax_code_only',
      'person_seller_with_rea_and_stamp',
      'attachment_and_issuer',
    ]);
  });
});

function parsed(bytes: Buffer): SimplifiedInvoice {
  const read = parseInvoiceXml(bytes);
  expect(read.problems).toEqual([]);
  if (!read.invoice || !isSimplified(read.invoice)) throw new Error('Not read as a simplified invoice');
  return read.invoice;
}

describe('simplified invoices in JSON', () => {
  it.each(Object.entries(CONSTRUCTED).filter(([, bytes]) => parseInvoiceXml(bytes).invoice))('round-trips %s XML → JSON → XML → JSON', (_, bytes) => {
    const invoice = parsed(bytes);
    expect(invoice.namespace).toBe(SIMPLIFIED.namespace);
    const xml = invoiceToXml(invoice);
    expect(xml).toContain('<p:FatturaElettronicaSemplificata xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.0" versione="FSM10"');
    expect(schemaValidator(officialSimplifiedXsd(), OFFICIAL_SIMPLIFIED_XSD_PATH)(Buffer.from(xml)).valid).toBe(true);
    expect(parsed(Buffer.from(xml))).toEqual(invoice);
    expect(validateInvoiceJson(JSON.parse(JSON.stringify(invoice)))).toEqual({ invoice, problems: [] });
  });

  it('validates a JSON simplified invoice by the same model, with pointers', () => {
    const invoice = JSON.parse(JSON.stringify(parsed(CONSTRUCTED.official)));
    delete invoice.namespace;
    invoice.fattura_elettronica_body[0].dati_beni_servizi[0].importo = 25;
    invoice.fattura_elettronica_body[0].dati_beni_servizi[0].dati_iva.aliquota = '22.0';
    invoice.fattura_elettronica_header.cedente_prestatore.nome = 'MARIO';
    const { problems } = validateInvoiceJson(invoice);
    expect(problems.map((p) => [p.pointer, p.kind])).toEqual([
      ['/fattura_elettronica_header/cedente_prestatore/nome', 'unexpected'],
      ['/fattura_elettronica_body/0/dati_beni_servizi/0/importo', 'type'],
      ['/fattura_elettronica_body/0/dati_beni_servizi/0/dati_iva/aliquota', 'value'],
    ]);
  });

  it('reads a JSON invoice without versione FSM10 as an ordinary one', () => {
    const invoice = JSON.parse(JSON.stringify(parsed(CONSTRUCTED.official)));
    invoice.versione = 'FPR12';
    expect(validateInvoiceJson(invoice).problems.map((p) => p.pointer)).toContain('/fattura_elettronica_header/cedente_prestatore/dati_anagrafici');
  });
});

describe("the SDI's checks of simplified invoices", () => {
  const today = '2026-11-29';
  const codes = (bytes: Buffer, company: { vat_number: string } | null = null) => sdiChecks(parsed(bytes), company, { today }).map((p) => [p.code, p.path]);

  it('passes the official example, its seller being the company', () => {
    expect(codes(CONSTRUCTED.official, { vat_number: 'IT01234567890' })).toEqual([]);
  });

  it('refuses a TD07 over 400.00 euro VAT included (00460), not one of 400.00', () => {
    expect(codes(variant([ITEM, item('A', '300.00', '<Aliquota>22.00</Aliquota>') + item('B', '100.01', '<Aliquota>22.00</Aliquota>')]))).toEqual([
      ['00460', '/FatturaElettronicaBody/0/DatiBeniServizi'],
    ]);
    expect(codes(variant([ITEM, item('A', '300.00', '<Aliquota>22.00</Aliquota>') + item('B', '100.00', '<Aliquota>22.00</Aliquota>')]))).toEqual([]);
  });

  // Art. 21-bis c.1 and c.1 h) DPR 633/72: a correction of art. 26 is simplified whatever its amount, and names the invoice it corrects.
  const corrects = (numero: string) =>
    `</DatiGeneraliDocumento><DatiFatturaRettificata><NumeroFR>${numero}</NumeroFR><DataFR>2018-12-20</DataFR><ElementiRettificati>Reso</ElementiRettificati></DatiFatturaRettificata>`;
  const note = (type: string, amount: string, corrected: boolean) =>
    variant(
      ['<TipoDocumento>TD07', `<TipoDocumento>${type}`],
      ['<Importo>25.00</Importo>', `<Importo>${amount}</Importo>`],
      ...(corrected ? [['</DatiGeneraliDocumento>', corrects('122')] as [string, string]] : []),
    );

  it('takes a credit or debit note over 400.00 euro that names the invoice it corrects', () => {
    expect(codes(note('TD08', '900.00', true))).toEqual([]);
    expect(codes(note('TD09', '900.00', true))).toEqual([]);
  });

  it('refuses a credit or debit note over 400.00 euro that names no corrected invoice (00460), and takes one of 400.00', () => {
    expect(codes(note('TD08', '900.00', false))).toEqual([['00460', '/FatturaElettronicaBody/0/DatiBeniServizi']]);
    expect(codes(note('TD09', '400.01', false))).toEqual([['00460', '/FatturaElettronicaBody/0/DatiBeniServizi']]);
    expect(codes(note('TD08', '400.00', false))).toEqual([]);
    const [problem] = sdiChecks(parsed(note('TD08', '900.00', false)), null, { today });
    expect(problem.message).toMatch(/TD08.*names no corrected invoice.*900\.00.*DatiFatturaRettificata/);
  });

  it('checks the VAT of each good or service, its Natura, the number, the date and the parties', () => {
    expect(codes(variant(['<Aliquota>22.00</Aliquota>', '']))).toEqual([[null, '/FatturaElettronicaBody/0/DatiBeniServizi/0/DatiIVA']]);
    expect(codes(variant(['<Aliquota>22.00</Aliquota>', '<Aliquota>0.00</Aliquota>']))).toEqual([
      ['00400', '/FatturaElettronicaBody/0/DatiBeniServizi/0/Natura'],
    ]);
    expect(codes(variant(['</DatiIVA>', '</DatiIVA><Natura>N4</Natura>']))).toEqual([['00401', '/FatturaElettronicaBody/0/DatiBeniServizi/0/Natura']]);
    expect(codes(variant(['<Aliquota>22.00</Aliquota>', '<Imposta>25.01</Imposta>']))).toEqual([
      [null, '/FatturaElettronicaBody/0/DatiBeniServizi/0/DatiIVA/Imposta'],
    ]);
    expect(codes(variant(['<Aliquota>22.00</Aliquota>', '<Aliquota>0.22</Aliquota>']))).toEqual([
      ['00424', '/FatturaElettronicaBody/0/DatiBeniServizi/0/DatiIVA/Aliquota'],
    ]);
    expect(codes(variant(['<Numero>123</Numero>', '<Numero>ABC</Numero>']))).toEqual([
      ['00425', '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Numero'],
    ]);
    expect(codes(variant(['<Data>2019-01-01</Data>', '<Data>2027-01-01</Data>']))).toEqual([
      ['00403', '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Data'],
    ]);
    expect(codes(variant(['<IdCodice>09876543210</IdCodice>', '<IdCodice>01234567890</IdCodice>']))).toEqual([
      ['00471', '/FatturaElettronicaHeader/CessionarioCommittente/IdentificativiFiscali/IdFiscaleIVA'],
    ]);
    expect(codes(variant([/<IdentificativiFiscali>[\s\S]*<\/IdentificativiFiscali>/, '<IdentificativiFiscali/>']))).toEqual([
      ['00417', '/FatturaElettronicaHeader/CessionarioCommittente/IdentificativiFiscali'],
    ]);
    expect(codes(variant(['<CodiceDestinatario>0000000', '<CodiceDestinatario>ABC1234']))).toEqual([
      ['00426', '/FatturaElettronicaHeader/DatiTrasmissione/PECDestinatario'],
    ]);
    const corrected = variant(
      ['<TipoDocumento>TD07', '<TipoDocumento>TD08'],
      [
        '</DatiGeneraliDocumento>',
        '</DatiGeneraliDocumento><DatiFatturaRettificata><NumeroFR>1</NumeroFR><DataFR>2019-02-01</DataFR><ElementiRettificati>Prezzo</ElementiRettificati></DatiFatturaRettificata>',
      ],
    );
    expect(codes(corrected)).toEqual([['00418', '/FatturaElettronicaBody/0/DatiGenerali/DatiFatturaRettificata/DataFR']]);
  });

  it('wants the company as the seller', () => {
    expect(codes(CONSTRUCTED.official, { vat_number: 'IT09876543210' })).toEqual([[null, '/FatturaElettronicaHeader/CedentePrestatore']]);
  });
});

describe('the document derived from a simplified invoice', () => {
  it('takes the gross from the amounts, VAT included, and the VAT from the rate: one flow of the gross on the invoice date', () => {
    const derived = deriveDocument(parsed(CONSTRUCTED.official), { vat_number: '01234567890' });
    expect(derived).toEqual({
      number: '123',
      tipo_documento: 'TD07',
      type: 'INVOICE',
      direction: 'ISSUED',
      format: 'FSM10',
      creation_date: '2019-01-01',
      gross_amount: { amount: '25.00', currency: 'EUR' },
      // 25.00 × 22 / 122 = 4.508…
      vat_amount: { amount: '4.51', currency: 'EUR' },
      counterpart: {
        company_name: 'BETA GAMMA',
        vat_number: 'IT09876543210',
        tax_number: null,
        address: 'VIA TORINO 38-B',
        city: 'ROMA',
        postal_code: '00145',
        province_code: 'RM',
        country: 'IT',
        destination_code: '0000000',
      },
      flows: [{ amount: { amount: '25.00', currency: 'EUR' }, payment_method: null, expected_payment_date: '2019-01-01' }],
    });
  });

  it('adds VAT amounts and rates item by item; a credit note is a CREDIT_NOTE; a buyer known by its tax code is named by it', () => {
    const derived = deriveDocument(parsed(CONSTRUCTED.two_items_vat_amount_and_natura), { vat_number: '01234567890' });
    expect([derived.gross_amount.amount, derived.vat_amount.amount]).toEqual(['124.00', '22.00']);
    expect(deriveDocument(parsed(CONSTRUCTED.credit_note_with_corrected_invoice), { vat_number: '01234567890' }).type).toBe('CREDIT_NOTE');
    const anonymous = deriveDocument(parsed(CONSTRUCTED.buyer_by_tax_code_only), { vat_number: '01234567890' }).counterpart;
    expect(anonymous).toMatchObject({ company_name: 'RSSMRA80A01H501U', vat_number: null, tax_number: 'RSSMRA80A01H501U', country: 'IT', address: '' });
  });

  it('is RECEIVED, with the seller as counterpart, when the company is the buyer', () => {
    const derived = deriveDocument(parsed(CONSTRUCTED.official), { vat_number: '09876543210' });
    expect(derived.direction).toBe('RECEIVED');
    expect(derived.counterpart).toMatchObject({ company_name: "SOCIETA' ALPHA SRL", vat_number: 'IT01234567890', city: 'SASSARI', destination_code: null });
  });
});
