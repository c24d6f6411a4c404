/**
 * One verdict: every sample of the oracle (../shared/fatturapa: valid, invalid, simplified), the repository's own test
 * files (the reference's examples, the 25,000-line invoice) and, for every valid one, variants with whitespace around
 * or inside values, go through the API's reader (the XML path of create-invoice: the safe read, then the model's
 * validation), through libxml with the generated schemas and through libxml with the official ones. The three must
 * agree on every file; the only refusal beyond the schema is the SDI's size limit (5 MB, 00003), for which the schemas
 * must say valid. What the API accepts, its JSON form then carries through JSON → XML with the same verdict.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OFFICIAL_SIMPLIFIED_XSD_PATH, OFFICIAL_XSD_PATH, officialSimplifiedXsd, officialXsd, samples } from '../../../test/fatturapa-oracle.js';
import { manyLinesInvoiceXml } from '../../../test/large-invoices.js';
import { exampleInvoice, exampleSimplifiedInvoice } from '../invoice-example.js';
import { checkInvoiceXml, invoiceToXml, validateInvoiceJson } from './index.js';
import { schemaValidator } from './libxml.js';
import { INVOICE_XSD_PATH, SIMPLIFIED_XSD_PATH } from './schema-file.js';

const validator = (path: string, base?: string) => schemaValidator(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), base);
const generated = [validator(resolve(process.cwd(), INVOICE_XSD_PATH)), validator(resolve(process.cwd(), SIMPLIFIED_XSD_PATH))];
const official = [schemaValidator(officialXsd(), OFFICIAL_XSD_PATH), schemaValidator(officialSimplifiedXsd(), OFFICIAL_SIMPLIFIED_XSD_PATH)];
/** A file is valid FatturaPA when the schema of its format (ordinary or simplified) accepts it. */
const validBy = (schemas: typeof generated, bytes: Buffer) => schemas.some((schema) => schema(bytes).valid);

/**
 * Whitespace where FatturaPA files carry it by mistake or by formatting, each applied to the first element of that
 * name: dates and codes keep it (xs:string, xs:date: refused), decimals and integers collapse it (accepted), texts turn
 * tabs and breaks into spaces (accepted within their charset).
 */
const WHITESPACE: [string, string, (value: string) => string][] = [
  ['date with a trailing space', 'Data', (v) => `${v} `],
  ['date with a leading break', 'Data', (v) => `\n${v}`],
  ['due date with a trailing space', 'DataScadenzaPagamento', (v) => `${v} `],
  ['document type with a trailing space', 'TipoDocumento', (v) => `${v} `],
  ['currency with a leading space', 'Divisa', (v) => ` ${v}`],
  ['recipient code with a trailing space', 'CodiceDestinatario', (v) => `${v} `],
  ['country with a leading space', 'Nazione', (v) => ` ${v}`],
  ['empty country (the schema default, IT)', 'Nazione', () => ''],
  ['VAT code with spaces around', 'IdCodice', (v) => ` ${v} `],
  ['progressive with a leading space', 'ProgressivoInvio', (v) => ` ${v}`],
  ['number with a line break inside', 'Numero', (v) => `${v.slice(0, 1)}\n${v.slice(1)}`],
  ['name with a tab inside', 'Denominazione', (v) => v.replace(' ', '\t')],
  ['line number with spaces around', 'NumeroLinea', (v) => ` ${v} `],
  ['line total with a break after', 'PrezzoTotale', (v) => `${v}\n`],
  ['taxable amount with spaces around', 'ImponibileImporto', (v) => `  ${v}  `],
  ['simplified amount with spaces around', 'Importo', (v) => ` ${v} `],
  ['rate with a trailing tab', 'AliquotaIVA', (v) => `${v}\t`],
  ['payment days with spaces around', 'GiorniTerminiPagamento', (v) => ` ${v} `],
  ['attachment in lines of 76', 'Attachment', (v) => v.replace(/\s/g, '').replace(/(.{76})/g, '$1\r\n')],
];

function whitespaceVariants(name: string, bytes: Buffer): [string, Buffer][] {
  const text = bytes.toString('latin1');
  return WHITESPACE.flatMap(([what, element, change]) => {
    const match = new RegExp(`<${element}>([^<]*)</${element}>`).exec(text);
    if (!match) return [];
    const changed = text.slice(0, match.index) + `<${element}>${change(match[1])}</${element}>` + text.slice(match.index + match[0].length);
    return changed === text ? [] : [[`${name}, ${what}`, Buffer.from(changed, 'latin1')] as [string, Buffer]];
  });
}

const oracle = (['valid', 'invalid', 'simplified'] as const).flatMap((folder) =>
  samples(folder).map((s) => [`${folder}/${s.name}`, s.bytes] as [string, Buffer]),
);
const repository: [string, Buffer][] = [
  ['the reference example (FPR12)', Buffer.from(invoiceToXml(exampleInvoice()))],
  ['the reference example (FSM10)', Buffer.from(invoiceToXml(exampleSimplifiedInvoice()))],
  ['the 25,000-line invoice', manyLinesInvoiceXml('01234567890')],
];
const variants = [...oracle.filter(([name]) => !name.startsWith('invalid/')), ...repository.slice(0, 2)].flatMap(([name, bytes]) =>
  whitespaceVariants(name, bytes),
);

describe('one verdict: the API, the generated schemas and the official ones', () => {
  it('has the files it means to compare', () => {
    expect(oracle).toHaveLength(42);
    expect(variants.length).toBeGreaterThan(300);
  });

  it.each([...oracle, ...repository, ...variants])('agree on %s', (_, bytes) => {
    const api = checkInvoiceXml(bytes, null);
    const schema = validBy(generated, bytes);
    expect(validBy(official, bytes)).toBe(schema);
    if (api.refusal?.reason === 'too_large') {
      // Only the SDI's size limit refuses it: by the schema it is valid.
      expect(schema).toBe(true);
      return;
    }
    expect({ accepted: api.invoice !== null, problems: api.invoice ? false : api.problems.length + (api.refusal ? 1 : 0) > 0 }).toEqual({
      accepted: schema,
      problems: !schema,
    });
    if (!api.invoice) return;
    // The JSON form of an accepted file is accepted as JSON, and written back it is a file the schemas accept.
    const json = validateInvoiceJson(JSON.parse(JSON.stringify(api.invoice)));
    expect(json.problems).toEqual([]);
    const written = Buffer.from(invoiceToXml(json.invoice!));
    expect([validBy(generated, written), validBy(official, written)]).toEqual([true, true]);
  });
});
