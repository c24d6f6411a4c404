import { sample, samples } from '../../../test/fatturapa-oracle.js';
import { manyAttributesXml, manyLinesInvoiceXml } from '../../../test/large-invoices.js';
import { MAX_INVOICE_BYTES, parseInvoiceXml, type Invoice } from './index.js';

const refusal = (bytes: Buffer) => parseInvoiceXml(bytes).refusal;

/** Time of a call, in milliseconds. */
function timed<T>(work: () => T): [T, number] {
  const start = process.hrtime.bigint();
  const result = work();
  return [result, Number(process.hrtime.bigint() - start) / 1e6];
}

describe('every invalid sample gets its expected failure', () => {
  const expected: Record<string, { refusal?: string; path?: string; schemaValid?: true }> = {
    'xml_empty_file.xml': { refusal: 'empty' },
    'xml_not_xml_text.xml': { refusal: 'malformed' },
    'sec_billion_laughs.xml': { refusal: 'doctype' },
    'sec_xxe_file_entity.xml': { refusal: 'doctype' },
    'size_over_5MB_many_lines.xml': { refusal: 'too_large' },
    'xsd_missing_CodiceDestinatario.xml': { path: '/FatturaElettronicaHeader/DatiTrasmissione/CodiceDestinatario' },
    'xsd_TipoDocumento_TD99.xml': { path: '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/TipoDocumento' },
    'xsd_Natura_N2.9.xml': { path: '/FatturaElettronicaBody/0/DatiBeniServizi/DettaglioLinee/1/Natura' },
    'xsd_missing_DettaglioLinee.xml': { path: '/FatturaElettronicaBody/0/DatiBeniServizi/DettaglioLinee' },
    'xsd_malformed_date.xml': { path: '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Data' },
    'xsd_wrong_namespace_v1.1.xml': { path: '' },
    'xsd_default_namespace_on_children.xml': { path: '/FatturaElettronicaHeader' },
    'xsd_official_FPA02_impossible_date.xml': { path: '/FatturaElettronicaBody/0/DatiPagamento/0/DettaglioPagamento/0/DataScadenzaPagamento' },
    'xsd_Denominazione_not_latin1.xml': { path: '/FatturaElettronicaHeader/CessionarioCommittente/DatiAnagrafici/Anagrafica/Denominazione' },
    'xsd_Percentuale_one_decimal.xml': { path: '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/ScontoMaggiorazione/0/Percentuale' },
    'xsd_elements_out_of_order.xml': { path: '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Data' },
    // Schema-valid: the SDI checks refuse them (sdi-checks.spec.ts).
    'sdi_00400_zero_rate_line_without_Natura.xml': { schemaValid: true },
    'sdi_00423_PrezzoTotale_not_quantity_times_price.xml': { schemaValid: true },
    'sdi_00428_versione_attribute_mismatch.xml': { schemaValid: true },
  };

  it('covers every file of the folder', () => {
    expect(samples('invalid').map((s) => s.name)).toEqual(Object.keys(expected).sort());
  });

  it.each(samples('invalid').map((s) => [s.name, s.bytes] as const))('%s', (name, bytes) => {
    const want = expected[name];
    const result = parseInvoiceXml(bytes);
    if (want.refusal) {
      expect(result.refusal?.reason).toBe(want.refusal);
      expect(result.invoice).toBeNull();
    } else if (want.schemaValid) {
      expect(result.refusal).toBeNull();
      expect(result.problems).toEqual([]);
    } else {
      expect(result.refusal).toBeNull();
      expect(result.invoice).toBeNull();
      expect(result.problems[0]).toEqual(expect.objectContaining({ path: want.path }));
      expect(result.problems[0].message.length).toBeGreaterThan(20);
    }
  });
});

describe('hostile and broken bodies are refused quickly, before any entity is expanded', () => {
  const billionLaughs = Buffer.from(
    `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><p:FatturaElettronica xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2" versione="FPR12">&lol9;</p:FatturaElettronica>`,
  );
  // Quadratic blow-up: one 100 kB entity referenced 40,000 times (4 GB once expanded), no nesting to trip loop detection.
  const quadratic = Buffer.from(
    `<?xml version="1.0"?><!DOCTYPE q [<!ENTITY a "${'a'.repeat(100_000)}">]><p:FatturaElettronica xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2" versione="FPR12">${'&a;'.repeat(40_000)}</p:FatturaElettronica>`,
  );
  const xxe = sample('invalid', 'sec_xxe_file_entity.xml');

  it.each([
    ['billion laughs', billionLaughs],
    ['quadratic blow-up', quadratic],
    ['XXE', xxe],
    [
      'the XXE sample in UTF-16',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xxe.toString('utf8').replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le')]),
    ],
    ['a lowercase doctype', Buffer.from('<?xml version="1.0"?><!doctype x><x/>')],
  ])('%s: refused for its DOCTYPE, without expanding anything', (_, bytes) => {
    const [result, ms] = timed(() => parseInvoiceXml(bytes));
    expect(result.refusal?.reason).toBe('doctype');
    expect(ms).toBeLessThan(500);
    expect(JSON.stringify(result)).not.toMatch(/root:|lollol|aaaa/);
  });

  it('refuses a body over 5 MB before parsing it', () => {
    const [result, ms] = timed(() => parseInvoiceXml(Buffer.alloc(MAX_INVOICE_BYTES + 1, 0x20)));
    expect(result.refusal?.reason).toBe('too_large');
    expect(ms).toBeLessThan(500);
  });

  it.each([
    ['empty', Buffer.alloc(0), 'empty'],
    ['only whitespace', Buffer.from('  \n '), 'empty'],
    ['binary', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]), 'binary'],
    ['a PDF', Buffer.from('%PDF-1.7\n1 0 obj\n'), 'malformed'],
    ['JSON sent as XML', Buffer.from('{"versione":"FPR12"}'), 'malformed'],
    ['truncated', sample('valid', 'IT01234567890_FPR01.xml').subarray(0, 2000), 'malformed'],
    ['unbalanced', Buffer.from('<a><b></a>'), 'malformed'],
    ['UTF-32', Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x00]), 'encoding'],
    ['invalid UTF-8', Buffer.concat([Buffer.from('<?xml version="1.0" encoding="UTF-8"?><a>'), Buffer.from([0xc3, 0x28]), Buffer.from('</a>')]), 'malformed'],
    ['an unknown encoding', Buffer.from('<?xml version="1.0" encoding="x-klingon"?><a/>'), 'encoding'],
    ['deeply nested elements', Buffer.from(`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`), 'too_complex'],
  ])('%s: refused with a clear reason', (_, bytes, reason) => {
    const [result, ms] = timed(() => parseInvoiceXml(bytes));
    expect(result.refusal?.reason).toBe(reason);
    expect(result.refusal?.message.length).toBeGreaterThan(10);
    expect(ms).toBeLessThan(1000);
  });
});

describe('encodings', () => {
  const fpr01 = sample('valid', 'IT01234567890_FPR01.xml').toString('utf8');
  const description = (bytes: Buffer) =>
    (parseInvoiceXml(bytes).invoice as Invoice | null)?.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee[0].descrizione;

  it('reads UTF-8 with and without a BOM', () => {
    const text = fpr01.replace('<Descrizione>', '<Descrizione>Caffè ');
    expect(description(Buffer.from(text))).toMatch(/^Caffè /);
    expect(description(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toMatch(/^Caffè /);
    expect(parseInvoiceXml(sample('valid', 'oca_ITBNCMRA80A01D548T_20001.xml')).problems).toEqual([]);
  });

  it('reads ISO-8859-1 as its XML declaration says', () => {
    const text = fpr01.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace('<Descrizione>', '<Descrizione>Caffè ');
    expect(description(Buffer.from(text, 'latin1'))).toMatch(/^Caffè /);
  });

  it('reads windows-1252, which Windows software writes and this libxml cannot decode itself', () => {
    const text = fpr01.replace('encoding="UTF-8"', 'encoding="windows-1252"').replace('<Descrizione>', '<Descrizione>Caffè ');
    expect(description(Buffer.from(text, 'latin1'))).toMatch(/^Caffè /);
    // Still judged for well-formedness, on the decoded text.
    const broken = text.replace('</Descrizione>', '</Descrizion>');
    expect(refusal(Buffer.from(broken, 'latin1'))?.reason).toBe('malformed');
  });

  it('reads UTF-16 with a byte order mark', () => {
    const text = fpr01.replace('encoding="UTF-8"', 'encoding="UTF-16"').replace('<Descrizione>', '<Descrizione>Caffè ');
    expect(description(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toMatch(/^Caffè /);
  });

  it('refuses bytes that are not what the declaration says', () => {
    const text = fpr01.replace('<Descrizione>', '<Descrizione>Caffè ');
    expect(refusal(Buffer.from(text, 'latin1'))?.reason).toBe('malformed');
  });
});

describe('the DOCTYPE scan judges the decoded text', () => {
  const fpr01 = sample('valid', 'IT01234567890_FPR01.xml').toString('utf8');

  it('takes a DOCTYPE mentioned inside a comment for a comment', () => {
    const commented = fpr01.replace('?>', '?>\n<!-- written without <!DOCTYPE FatturaElettronica SYSTEM "fattura.dtd"> or <!ENTITY x "y"> -->');
    const result = parseInvoiceXml(Buffer.from(commented));
    expect(result.refusal).toBeNull();
    expect(result.problems).toEqual([]);
    // The same words after the comment are a declaration.
    expect(refusal(Buffer.from(commented.replace('-->', '--><!DOCTYPE x>')))?.reason).toBe('doctype');
  });

  it.each([
    ['ISO-2022-JP', (doctype: string) => doctype.replace('<!DOCTYPE', '<!DOC\x1b(BTYPE')],
    ['ISO-2022-KR', (doctype: string) => doctype],
    ['UTF-7', (doctype: string) => doctype.replace('<!DOCTYPE', '+ADw-!DOCTYPE')],
    ['x-mac-roman', (doctype: string) => doctype],
    ['Shift_JIS', (doctype: string) => doctype],
  ])('refuses %s, an encoding outside the accepted ones, before libxml reads it', (encoding, hide) => {
    const xxe = sample('invalid', 'sec_xxe_file_entity.xml').toString('latin1');
    const bytes = Buffer.from(hide(xxe.replace(/encoding="[^"]*"/, `encoding="${encoding}"`)), 'latin1');
    const result = parseInvoiceXml(bytes);
    expect(result.refusal).toEqual({
      reason: 'encoding',
      message: expect.stringMatching(new RegExp(`^The encoding ${encoding.toUpperCase()} is not accepted: send UTF-8`)),
    });
  });

  it('holds a byte order mark and the declaration to each other', () => {
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(refusal(utf16(fpr01.replace('encoding="UTF-8"', 'encoding="ISO-2022-JP"')))?.reason).toBe('encoding');
    expect(refusal(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(fpr01.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'))]))?.reason).toBe(
      'encoding',
    );
    // An encoding label with a character the old pattern skipped is judged, not read as UTF-8.
    expect(refusal(Buffer.from(fpr01.replace('encoding="UTF-8"', 'encoding="ISO-2022-JP "')))?.reason).toBe('encoding');
  });

  it('reads ISO-8859-15 as declared', () => {
    const text = fpr01.replace('encoding="UTF-8"', 'encoding="ISO-8859-15"').replace('<Descrizione>', '<Descrizione>Caffè ');
    const read = parseInvoiceXml(Buffer.from(text, 'latin1'));
    expect((read.invoice as Invoice | null)?.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee[0].descrizione).toMatch(/^Caffè /);
  });
});

describe('the markup limits, counted before libxml reads anything', () => {
  const root = (inside: string, attributes = '') =>
    Buffer.from(
      `<?xml version="1.0"?><p:FatturaElettronica xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2" versione="FPR12"${attributes}>${inside}</p:FatturaElettronica>`,
    );

  it.each([
    ['100,000 attributes on the root (1.09 MB)', manyAttributesXml(100_000), /more than 32 attributes \(line 1\)/],
    ['33 attributes on one element', root('<a ' + Array.from({ length: 33 }, (_, i) => `b${i}="1"`).join(' ') + '/>'), /more than 32 attributes/],
    ['an element nested 65 deep', root('<a>'.repeat(64) + '</a>'.repeat(64)), /nested more than 64 deep/],
    ['an element name of 129 characters', root(`<${'n'.repeat(129)}/>`), /name is longer than 128 characters/],
    ['an attribute name of 129 characters', root('', ` ${'n'.repeat(129)}="1"`), /name is longer than 128 characters/],
    ['500,001 elements', root('<a/>'.repeat(500_000)), /more than 500000 elements, attributes/],
    ['an unterminated tag of 100,000 attributes', Buffer.from(`<a${' b="1"'.repeat(100_000)}`), /more than 32 attributes/],
  ])('%s: refused as too complex', (_, bytes, message) => {
    expect(parseInvoiceXml(bytes).refusal).toEqual({ reason: 'too_complex', message: expect.stringMatching(message) });
  });

  it('leaves every valid sample and a 25,000-line invoice within them', () => {
    for (const { name, bytes } of samples('valid')) expect([name, parseInvoiceXml(bytes).refusal]).toEqual([name, null]);
    const lines = parseInvoiceXml(manyLinesInvoiceXml('01234567890'));
    expect(lines.refusal).toBeNull();
    expect(lines.problems).toEqual([]);
    expect((lines.invoice as Invoice | null)?.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee).toHaveLength(25_000);
    // 32 attributes, 64 deep: still read.
    const deep = parseInvoiceXml(root('<a ' + Array.from({ length: 32 }, (_, i) => `b${i}="1"`).join(' ') + '>' + '<a>'.repeat(62) + '</a>'.repeat(63)));
    expect(deep.refusal).toBeNull();
  });
});
