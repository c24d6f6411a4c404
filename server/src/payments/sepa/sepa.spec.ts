import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { IBAN_LENGTHS, ibanProblem, isValidIban, mod97, normalizeIban } from '../../common/validation/iban.js';
import { readXml, schemaValidator, type XmlElement } from '../../invoices/fatturapa/libxml.js';
import { isSepaText, sepaReferenceProblem, toSepaText } from './charset.js';
import { SEPA_COUNTRIES } from './countries.js';
import { controlSum, PAIN_001_001_09_NAMESPACE, SEPA_LIMITS, writePain001, type CreditTransferInitiation } from './pain001.js';

/** The schema of the subset Flusso writes, authored from the ISO 20022 message definition (see xsd/README.md). */
const PAIN_001_XSD_PATH = 'xsd/pain.001.001.09.flusso.xsd';
const validate = schemaValidator(readFileSync(resolve(process.cwd(), PAIN_001_XSD_PATH), 'utf8'));

const message = (values: Partial<CreditTransferInitiation> = {}): CreditTransferInitiation => ({
  messageId: '3F2E1D0C9B8A4765843210FEDCBA9876',
  createdAt: new Date('2026-04-28T09:15:42.123Z'),
  paymentInformationId: '3F2E1D0C9B8A4765843210FEDCBA9876-1',
  requestedExecutionDate: '2026-04-30',
  debtor: { name: 'Trattoria Da Mario S.r.l.', iban: 'IT60X0542811101000000123456', bic: null },
  transfers: [
    {
      endToEndId: 'FATT-2026-118',
      amount: '1220.00',
      creditorName: 'Caseificio Bianchi S.r.l.',
      creditorIban: 'IT42L1234512345123456789012',
      remittanceInformation: 'Saldo fattura 118/2026',
    },
    { endToEndId: 'E2E-2', amount: '586.4', creditorName: 'Weingut Mueller GmbH', creditorIban: 'DE89370400440532013000', remittanceInformation: null },
  ],
  ...values,
});

const child = (element: XmlElement, name: string): XmlElement => {
  const found = element.children.find((c) => c.name === name);
  if (!found) throw new Error(`no ${name} under ${element.name}`);
  return found;
};
const path = (element: XmlElement, ...names: string[]): XmlElement => names.reduce(child, element);
const tree = (xml: string): XmlElement => {
  const read = readXml(Buffer.from(xml));
  if ('refusal' in read) throw new Error(read.refusal.message);
  return read.root;
};

describe('pain.001.001.09 writer', () => {
  it('writes a file the pain.001.001.09 schema accepts', () => {
    const xml = writePain001(message());
    expect(validate(Buffer.from(xml))).toEqual({ valid: true, problems: [] });
  });

  it('follows the EPC SEPA credit transfer profile: header, one payment information block, one transaction per transfer', () => {
    const root = tree(writePain001(message()));
    expect([root.name, root.namespace]).toEqual(['Document', PAIN_001_001_09_NAMESPACE]);
    const initiation = child(root, 'CstmrCdtTrfInitn');
    const header = child(initiation, 'GrpHdr');
    expect(header.children.map((c) => c.name)).toEqual(['MsgId', 'CreDtTm', 'NbOfTxs', 'CtrlSum', 'InitgPty']);
    expect(child(header, 'MsgId').text).toBe('3F2E1D0C9B8A4765843210FEDCBA9876');
    expect(child(header, 'CreDtTm').text).toBe('2026-04-28T09:15:42Z');
    expect(child(header, 'NbOfTxs').text).toBe('2');
    expect(child(header, 'CtrlSum').text).toBe('1806.40');
    expect(path(header, 'InitgPty', 'Nm').text).toBe('Trattoria Da Mario S.r.l.');

    const payment = child(initiation, 'PmtInf');
    expect(payment.children.map((c) => c.name)).toEqual([
      'PmtInfId',
      'PmtMtd',
      'NbOfTxs',
      'CtrlSum',
      'PmtTpInf',
      'ReqdExctnDt',
      'Dbtr',
      'DbtrAcct',
      'DbtrAgt',
      'ChrgBr',
      'CdtTrfTxInf',
      'CdtTrfTxInf',
    ]);
    expect(child(payment, 'PmtInfId').text).toBe('3F2E1D0C9B8A4765843210FEDCBA9876-1');
    expect(child(payment, 'PmtMtd').text).toBe('TRF');
    expect(child(payment, 'NbOfTxs').text).toBe('2');
    expect(child(payment, 'CtrlSum').text).toBe('1806.40');
    expect(path(payment, 'PmtTpInf', 'SvcLvl', 'Cd').text).toBe('SEPA');
    expect(path(payment, 'ReqdExctnDt', 'Dt').text).toBe('2026-04-30');
    expect(path(payment, 'Dbtr', 'Nm').text).toBe('Trattoria Da Mario S.r.l.');
    expect(path(payment, 'DbtrAcct', 'Id', 'IBAN').text).toBe('IT60X0542811101000000123456');
    expect(path(payment, 'DbtrAgt', 'FinInstnId', 'Othr', 'Id').text).toBe('NOTPROVIDED');
    expect(child(payment, 'ChrgBr').text).toBe('SLEV');

    const [first, second] = payment.children.filter((c) => c.name === 'CdtTrfTxInf');
    expect(first.children.map((c) => c.name)).toEqual(['PmtId', 'Amt', 'Cdtr', 'CdtrAcct', 'RmtInf']);
    expect(path(first, 'PmtId', 'EndToEndId').text).toBe('FATT-2026-118');
    const amount = path(first, 'Amt', 'InstdAmt');
    expect([amount.text, amount.attributes.Ccy?.value]).toEqual(['1220.00', 'EUR']);
    expect(path(first, 'Cdtr', 'Nm').text).toBe('Caseificio Bianchi S.r.l.');
    expect(path(first, 'CdtrAcct', 'Id', 'IBAN').text).toBe('IT42L1234512345123456789012');
    expect(path(first, 'RmtInf', 'Ustrd').text).toBe('Saldo fattura 118/2026');
    // Two decimals always; no RmtInf without remittance information.
    expect(path(second, 'Amt', 'InstdAmt').text).toBe('586.40');
    expect(second.children.map((c) => c.name)).toEqual(['PmtId', 'Amt', 'Cdtr', 'CdtrAcct']);
  });

  it("names the debtor's bank by BIC when it is known", () => {
    const xml = writePain001(message({ debtor: { name: 'Trattoria Da Mario S.r.l.', iban: 'IT60X0542811101000000123456', bic: 'BPMOIT22XXX' } }));
    expect(validate(Buffer.from(xml)).valid).toBe(true);
    const institution = path(tree(xml), 'CstmrCdtTrfInitn', 'PmtInf', 'DbtrAgt', 'FinInstnId');
    expect(institution.children.map((c) => [c.name, c.text])).toEqual([['BICFI', 'BPMOIT22XXX']]);
  });

  it('escapes markup in values (the XML stays one document with the same texts)', () => {
    const xml = writePain001(message({ debtor: { name: 'A < B & "C"', iban: 'IT60X0542811101000000123456', bic: null } }));
    expect(validate(Buffer.from(xml)).valid).toBe(true);
    expect(path(tree(xml), 'CstmrCdtTrfInitn', 'GrpHdr', 'InitgPty', 'Nm').text).toBe('A < B & "C"');
    expect(xml).toContain('<Nm>A &lt; B &amp; "C"</Nm>');
  });

  it('sums amounts exactly (no floating point), with two decimals', () => {
    expect(controlSum([{ amount: '0.1' }, { amount: '0.2' }])).toBe('0.30');
    expect(controlSum(Array.from({ length: 1000 }, () => ({ amount: '999999999.99' })))).toBe('999999999990.00');
    expect(controlSum([{ amount: '0.01' }])).toBe('0.01');
  });

  describe('the schema is a real check (what it refuses)', () => {
    const refuses = (edit: (xml: string) => string) => {
      const xml = edit(writePain001(message()));
      const verdict = validate(Buffer.from(xml));
      expect(verdict.valid).toBe(false);
      expect(verdict.problems.length).toBeGreaterThan(0);
    };

    it('a missing EndToEndId', () => refuses((xml) => xml.replace(/<EndToEndId>[^<]*<\/EndToEndId>/, '')));
    it('elements out of order', () => refuses((xml) => xml.replace(/(<NbOfTxs>2<\/NbOfTxs>)(\s*)(<CtrlSum>1806.40<\/CtrlSum>)/, '$3$2$1')));
    it('a malformed IBAN', () => refuses((xml) => xml.replace('DE89370400440532013000', 'de89 3704')));
    it('an amount with six decimals', () => refuses((xml) => xml.replace('>1220.00<', '>1220.000001<')));
    it('a negative amount', () => refuses((xml) => xml.replace('>1220.00<', '>-1220.00<')));
    it('an amount without currency', () => refuses((xml) => xml.replace(' Ccy="EUR"', '')));
    it('an unknown payment method', () => refuses((xml) => xml.replace('<PmtMtd>TRF</PmtMtd>', '<PmtMtd>SEPA</PmtMtd>')));
    it('an unknown charge bearer', () => refuses((xml) => xml.replace('<ChrgBr>SLEV</ChrgBr>', '<ChrgBr>OUR</ChrgBr>')));
    it('a MsgId over 35 characters', () => refuses((xml) => xml.replace(/<MsgId>[^<]*</, `<MsgId>${'M'.repeat(36)}<`)));
    it('remittance information over 140 characters', () => refuses((xml) => xml.replace('Saldo fattura 118/2026', 'x'.repeat(141))));
    it('a date-time that is not one', () => refuses((xml) => xml.replace('2026-04-28T09:15:42Z', '28/04/2026')));
    it('another namespace', () => refuses((xml) => xml.replace('pain.001.001.09', 'pain.001.001.03')));
    it('an element it does not know', () => refuses((xml) => xml.replace('<ChrgBr>', '<Foo>1</Foo><ChrgBr>')));
  });
});

describe('SEPA character set', () => {
  it('keeps what the set allows', () => {
    const allowed = "Rossi & Figli S.r.l. (Milano) - Fatt. 12/2026: 'saldo' +1,00?";
    expect(toSepaText(allowed)).toBe("Rossi + Figli S.r.l. (Milano) - Fatt. 12/2026: 'saldo' +1,00?");
  });

  it('transliterates Latin letters, ligatures, quotes and dashes, romanises other scripts and drops symbols', () => {
    expect(toSepaText('Società Agricola Nicolò Çelik')).toBe('Societa Agricola Nicolo Celik');
    expect(toSepaText('Müller Straße Øresund Æbleskiver Łódź Œuvre')).toBe('Muller Strasse Oresund AEbleskiver Lodz OEuvre');
    expect(toSepaText('“Caffè” – l’aperitivo — 5 €')).toBe("'Caffe' - l'aperitivo - 5 EUR");
    expect(toSepaText('a_b #1 @home; 50% *x*')).toBe('a-b .1 .home. 50. .x.');
    expect(toSepaText('Ελληνικά 😀 Кириллица')).toBe('Ellinika Kirillitsa');
    expect(toSepaText('Αθήνα Τράπεζα')).toBe('Athina Trapeza');
    expect(toSepaText('Müller Москва GmbH 北京')).toBe('Muller Moskva GmbH BeiJing');
    expect(toSepaText('١٢٣ ½')).toBe('123 1/2');
    // Accents sent as combining marks are the accented letters: not a letter and a space.
    expect(toSepaText('Ame\u0301lie Nicolo\u0300 C\u0327elik')).toBe('Amelie Nicolo Celik');
    expect(toSepaText('x\u0301y\u20dd')).toBe('xy');
    expect(toSepaText('🙂 ☕ ♥')).toBe('');
    expect(toSepaText('  two\tlines\nand\u0000nul  ')).toBe('two lines and nul');
  });

  it('gives only characters of the set, whatever comes in', () => {
    let all = '';
    for (let code = 0; code < 0x3000; code++) all += String.fromCharCode(code);
    expect(isSepaText(toSepaText(all))).toBe(true);
  });

  it('checks references as the EPC restricts them', () => {
    expect(sepaReferenceProblem('FATT-2026/118')).toBeNull();
    expect(sepaReferenceProblem('')).toMatch(/1 to 35/);
    expect(sepaReferenceProblem('x'.repeat(36))).toMatch(/1 to 35/);
    expect(sepaReferenceProblem('/abc')).toMatch(/"\/"/);
    expect(sepaReferenceProblem('abc/')).toMatch(/"\/"/);
    expect(sepaReferenceProblem('a//b')).toMatch(/"\/\/"/);
    expect(sepaReferenceProblem('fattura_1')).toMatch(/only letters/);
    expect(sepaReferenceProblem('fattura è')).toMatch(/only letters/);
    expect(sepaReferenceProblem(' ')).toMatch(/a letter or a digit/);
    expect(sepaReferenceProblem('-/-')).toMatch(/a letter or a digit/);
    expect(sepaReferenceProblem(' FATT-1')).toMatch(/start or end with a space/);
    expect(sepaReferenceProblem('FATT-1 ')).toMatch(/start or end with a space/);
    expect(sepaReferenceProblem('FATT 1')).toBeNull();
  });

  it('keeps names and texts within the limits the EPC sets', () => {
    expect(SEPA_LIMITS).toEqual({ nameLength: 70, remittanceLength: 140, maxAmount: '999999999.99' });
  });
});

describe('IBAN (ISO 13616)', () => {
  const examples = [
    'IT60X0542811101000000123456',
    'DE89370400440532013000',
    'GB82WEST12345698765432',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
    'BE68539007547034',
    'CH9300762011623852957',
    'NO9386011117947',
    'MT84MALT011000012345MTLCAST001S',
    'AT611904300234573201',
    'ES9121000418450200051332',
    'SM86U0322509800000000270100',
  ];

  it('accepts published examples, with spaces and in lower case', () => {
    for (const iban of examples) expect([iban, ibanProblem(iban)]).toEqual([iban, null]);
    expect(isValidIban('it60 x054 2811 1010 0000 0123 456')).toBe(true);
    expect(normalizeIban(' it60 x054\t2811 ')).toBe('IT60X0542811');
  });

  it('refuses wrong check digits, whichever character changed', () => {
    for (const iban of examples) {
      for (let i = 2; i < iban.length; i++) {
        const changed =
          iban.slice(0, i) +
          (/\d/.test(iban[i]) ? String((Number(iban[i]) + 1) % 10) : iban[i] === 'Z' ? 'A' : String.fromCharCode(iban.charCodeAt(i) + 1)) +
          iban.slice(i + 1);
        expect([changed, ibanProblem(changed)]).toEqual([changed, expect.stringMatching(/check digits|has \d+ characters|country code/)]);
      }
    }
  });

  it("refuses a length other than the country's, an unknown country and other shapes", () => {
    expect(ibanProblem('IT60X054281110100000012345')).toBe('An IBAN of IT has 27 characters; this one has 26.');
    expect(ibanProblem('DE8937040044053201300012')).toBe('An IBAN of DE has 22 characters; this one has 24.');
    expect(ibanProblem('US64SVBKUS6S3300958879')).toBe('US is not a country that issues IBANs.');
    for (const shape of [
      '',
      'IT',
      'IT60',
      '6060X0542811101000000123456',
      'ITXXX0542811101000000123456',
      'IT60-X054-2811',
      'IT60X05428111010000001234567890123456',
    ]) {
      expect([shape, ibanProblem(shape)]).toEqual([shape, 'An IBAN is a two-letter country code, two check digits and up to 30 letters and digits.']);
    }
  });

  it('knows the length of every SEPA country, and computes check digits as ISO 7064 MOD 97-10', () => {
    for (const country of SEPA_COUNTRIES) expect([country, IBAN_LENGTHS.has(country)]).toEqual([country, true]);
    expect(IBAN_LENGTHS.get('IT')).toBe(27);
    expect(98 - mod97('X0542811101000000123456' + 'IT00')).toBe(60);
  });
});
