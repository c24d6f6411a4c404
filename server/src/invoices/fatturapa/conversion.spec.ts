import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sample, samples } from '../../../test/fatturapa-oracle.js';
import { invoiceToXml, parseInvoiceXml, validateInvoiceJson, type Invoice } from './index.js';
import { readXml, schemaValidator, type XmlElement } from './libxml.js';
import { XMLDSIG_NAMESPACE } from './model.js';
import { INVOICE_XSD_PATH } from './schema-file.js';

const generatedSchema = schemaValidator(readFileSync(resolve(process.cwd(), INVOICE_XSD_PATH), 'utf8'));

function parseValid(bytes: Buffer): Invoice {
  const { invoice, problems, refusal } = parseInvoiceXml(bytes);
  expect(refusal).toBeNull();
  expect(problems).toEqual([]);
  return invoice as Invoice;
}

function tree(xml: string | Buffer): XmlElement {
  const read = readXml(Buffer.from(xml));
  if ('refusal' in read) throw new Error(read.refusal.message);
  return read.root;
}

/**
 * Element by element: names, namespaces, order, attributes and text content; whitespace between elements aside. The
 * XML signature that closes some files (XAdES, in the invopop samples) is compared as the rest: the JSON form carries it.
 */
function sameContent(a: XmlElement, b: XmlElement, path = ''): void {
  const here = `${path}/${a.name}`;
  expect({ at: here, name: b.name, namespace: b.namespace }).toEqual({ at: here, name: a.name, namespace: a.namespace });
  expect({ at: here, children: b.children.map((c) => c.name) }).toEqual({ at: here, children: a.children.map((c) => c.name) });
  if (path) {
    const attributes = (e: XmlElement) => Object.fromEntries(Object.values(e.attributes).map((v) => [`${v.namespace ?? ''} ${v.name}`, v.value]));
    expect({ at: here, attributes: attributes(b) }).toEqual({ at: here, attributes: attributes(a) });
  }
  if (a.children.length === 0) expect({ at: here, text: b.text.trim() }).toEqual({ at: here, text: a.text.trim() });
  a.children.forEach((child, i) => sameContent(child, b.children[i], here));
}

describe('XML → JSON → XML', () => {
  it.each(samples('valid').map((s) => [s.name, s.bytes] as const))('round-trips %s without changing its content', (_, bytes) => {
    const invoice = parseValid(bytes);
    const xml = invoiceToXml(invoice);
    expect(generatedSchema(Buffer.from(xml)).valid).toBe(true);
    const original = tree(bytes);
    const written = tree(xml);
    expect(Object.fromEntries(Object.entries(written.attributes).map(([k, v]) => [k, v.value]))).toEqual(
      Object.fromEntries(
        Object.entries(original.attributes)
          .filter(([k]) => !k.startsWith('xsi:'))
          .map(([k, v]) => [k, v.value]),
      ),
    );
    sameContent(original, written);
    expect(parseValid(Buffer.from(xml))).toEqual(invoice);
  });

  it('writes the root in the FatturaPA namespace with the p: prefix and versione, and everything below unqualified', () => {
    const xml = invoiceToXml(parseValid(sample('valid', 'constructed_other_prefix_FPR01.xml')));
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<p:FatturaElettronica xmlns:p="http:\/\/ivaservizi\.agenziaentrate\.gov\.it\/docs\/xsd\/fatture\/v1\.2" versione="FPR12">/,
    );
    expect(xml).toContain('<FatturaElettronicaHeader>');
  });

  it('gives integers for the spec’s integer members and strings for amounts', () => {
    const invoice = parseValid(sample('valid', 'IT01234567890_FPA01.xml'));
    const body = invoice.fattura_elettronica_body[0];
    expect(body.dati_generali.dati_ordine_acquisto?.[0].riferimento_numero_linea).toEqual([1]);
    const line = body.dati_beni_servizi.dettaglio_linee[0];
    expect(line.prezzo_unitario).toBe('1.00');
    expect(line.numero_linea).toBe('1');

    const json = JSON.parse(JSON.stringify(invoice));
    json.fattura_elettronica_body[0].dati_generali.dati_trasporto.numero_colli = 5;
    json.fattura_elettronica_body[0].dati_pagamento[0].dettaglio_pagamento[0].giorni_termini_pagamento = 30;
    const { invoice: valid } = validateInvoiceJson(json);
    const xml = invoiceToXml(valid as Invoice);
    expect(xml).toContain('<NumeroColli>5</NumeroColli>');
    expect(xml).toContain('<GiorniTerminiPagamento>30</GiorniTerminiPagamento>');
    expect(parseValid(Buffer.from(xml)).fattura_elettronica_body[0].dati_generali.dati_trasporto?.numero_colli).toBe(5);
    json.fattura_elettronica_body[0].dati_generali.dati_trasporto.numero_colli = '5';
    expect(validateInvoiceJson(json).problems).toEqual([
      expect.objectContaining({ kind: 'type', pointer: '/fattura_elettronica_body/0/dati_generali/dati_trasporto/numero_colli' }),
    ]);
  });
});

describe('what the JSON form keeps of the file', () => {
  it('keeps an XAdES signature as written, standalone, and writes it back', () => {
    const bytes = sample('valid', 'invopop_invoice-despatch.xml');
    const invoice = parseValid(bytes);
    // Its prefix is declared on the root: the kept element declares what it inherits, so it stands alone.
    expect(invoice.signature).toMatch(/^<ds:Signature [^>]*xmlns:ds="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"/);
    expect(tree(invoice.signature!)).toMatchObject({ name: 'Signature', namespace: XMLDSIG_NAMESPACE });
    const signature = (xml: string | Buffer) => tree(xml).children.find((c) => c.namespace === XMLDSIG_NAMESPACE)!;
    const written = invoiceToXml(invoice);
    sameContent(signature(bytes), signature(written), '/FatturaElettronica');
    // Written back character for character: read again, it is the same text.
    expect(parseValid(Buffer.from(written)).signature).toBe(invoice.signature);
    expect(written).toContain(invoice.signature!);
  });

  it('keeps the line breaks of a base64 attachment through XML → JSON → XML', () => {
    const base64 = Buffer.alloc(300, 7)
      .toString('base64')
      .replace(/(.{76})/g, '$1\r\n');
    const xml = sample('valid', 'IT01234567890_FPR01.xml')
      .toString('utf8')
      .replace(
        '</FatturaElettronicaBody>',
        `<Allegati><NomeAttachment>a.bin</NomeAttachment><Attachment>${base64}</Attachment></Allegati></FatturaElettronicaBody>`,
      );
    const invoice = parseValid(Buffer.from(xml));
    const attachment = invoice.fattura_elettronica_body[0].allegati![0].attachment;
    // XML reads CRLF as LF: the JSON form has the file's line breaks as XML sees them.
    expect(attachment).toBe(base64.replace(/\r\n/g, '\n'));
    expect(validateInvoiceJson(JSON.parse(JSON.stringify(invoice))).invoice?.fattura_elettronica_body[0].allegati![0].attachment).toBe(attachment);
    const written = invoiceToXml(invoice);
    expect(written).toContain(`<Attachment>${attachment}</Attachment>`);
    expect(Buffer.from(/<Attachment>([^<]*)</.exec(written)![1], 'base64')).toEqual(Buffer.alloc(300, 7));
  });
});

describe('the JSON form', () => {
  it.each(samples('valid').map((s) => [s.name, s.bytes] as const))('of %s validates and comes back canonical', (_, bytes) => {
    const invoice = parseValid(bytes);
    const result = validateInvoiceJson(JSON.parse(JSON.stringify(invoice)));
    expect(result.problems).toEqual([]);
    // The signature is read-only: a JSON invoice is written without it.
    const { signature: _signature, ...unsigned } = invoice;
    expect(result.invoice).toEqual(unsigned);
  });

  it('reports each problem with a JSON Pointer, the XML path and a plain message', () => {
    const invoice = JSON.parse(JSON.stringify(parseValid(sample('valid', 'IT01234567890_FPR01.xml'))));
    const body = invoice.fattura_elettronica_body[0];
    body.dati_generali.dati_generali_documento.data = '18/12/2014';
    delete body.dati_beni_servizi.dettaglio_linee[0].prezzo_unitario;
    body.dati_beni_servizi.dati_riepilogo[0].aliquota_iva = 22;
    invoice.fattura_elettronica_header.dati_trasmissione.colour = 'blue';
    const { invoice: valid, problems } = validateInvoiceJson(invoice);
    expect(valid).toBeNull();
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          pointer: '/fattura_elettronica_body/0/dati_generali/dati_generali_documento/data',
          path: '/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Data',
          kind: 'value',
          message: '"data" must be a date written YYYY-MM-DD, from 1970-01-01; got "18/12/2014"',
        },
        expect.objectContaining({ pointer: '/fattura_elettronica_body/0/dati_beni_servizi/dettaglio_linee/0/prezzo_unitario', kind: 'missing' }),
        expect.objectContaining({ pointer: '/fattura_elettronica_body/0/dati_beni_servizi/dati_riepilogo/0/aliquota_iva', kind: 'type' }),
        expect.objectContaining({ pointer: '/fattura_elettronica_header/dati_trasmissione/colour', kind: 'unexpected' }),
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it("takes Flusso's extensions (a line's product_id) as a uuid and leaves them out of the canonical form and the XML", () => {
    const original = parseValid(sample('valid', 'IT01234567890_FPR01.xml'));
    const invoice = JSON.parse(JSON.stringify(original));
    const line = invoice.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee[0];
    line.product_id = '2C4E6A8B-0D1F-4A3B-9C5D-7E9F1A3B5C7D';
    const result = validateInvoiceJson(invoice);
    expect(result.problems).toEqual([]);
    expect(result.invoice).toEqual(original);
    expect(invoiceToXml(result.invoice!)).not.toContain('product_id');
    for (const bad of [42, 'PIZZA-MARG', '']) {
      line.product_id = bad;
      expect(validateInvoiceJson(invoice).problems).toEqual([
        {
          pointer: '/fattura_elettronica_body/0/dati_beni_servizi/dettaglio_linee/0/product_id',
          path: '/FatturaElettronicaBody/0/DatiBeniServizi/DettaglioLinee/0/product_id',
          kind: 'type',
          message: '"product_id" must be a uuid, as a string',
        },
      ]);
    }
    // Only where the model declares it.
    delete line.product_id;
    invoice.fattura_elettronica_body[0].dati_beni_servizi.dati_riepilogo[0].product_id = '2c4e6a8b-0d1f-4a3b-9c5d-7e9f1a3b5c7d';
    expect(validateInvoiceJson(invoice).problems.map((p) => [p.kind, p.pointer])).toEqual([
      ['unexpected', '/fattura_elettronica_body/0/dati_beni_servizi/dati_riepilogo/0/product_id'],
    ]);
  });

  it('takes Denominazione, or Nome and Cognome, never both', () => {
    const invoice = JSON.parse(JSON.stringify(parseValid(sample('valid', 'IT01234567890_FPR01.xml'))));
    const anagrafica = invoice.fattura_elettronica_header.cedente_prestatore.dati_anagrafici.anagrafica;
    anagrafica.nome = 'Mario';
    expect(validateInvoiceJson(invoice).problems.map((p) => p.kind)).toEqual(['unexpected']);
    delete anagrafica.denominazione;
    expect(validateInvoiceJson(invoice).problems.map((p) => p.pointer)).toEqual([
      '/fattura_elettronica_header/cedente_prestatore/dati_anagrafici/anagrafica/cognome',
    ]);
    anagrafica.cognome = 'Rossi';
    expect(validateInvoiceJson(invoice).problems).toEqual([]);
  });
});

/**
 * The model's validators must say what the XML schema says. Every leaf of real invoices gets edge values (lengths,
 * charsets, decimals, dates, codes, whitespace), every member is removed in turn, and every XML element is removed,
 * doubled and swapped with its neighbour; the JSON validator, the XML reader and libxml with the generated schema
 * must agree each time.
 */
describe('the model validators against libxml and the generated schema', () => {
  const TEXT_CANDIDATES: string[] = [
    '',
    ' ',
    'x',
    'IT',
    'it',
    'TD01',
    'TD07',
    'N2.1',
    'SI',
    'RF20',
    'MP23',
    '22.00',
    '0.22',
    '100.00',
    '100.01',
    '-1.00',
    '1.0',
    '1',
    '1.123456789',
    ' 1.00 ',
    '+1.00',
    '2024-02-29',
    '2023-02-29',
    '2024-02-29Z',
    '2024-02-29+14:00',
    '1969-12-31',
    '18/12/2014',
    '2024-01-01T10:00:00',
    '2024-02-29 ',
    ' 2024-02-29',
    '2024-01-01T10:00:00 ',
    'é',
    '中',
    'a\tb',
    'A1B2C3D',
    'ABCDEF',
    'X'.repeat(61),
    'A'.repeat(16),
    'a@b.it',
    'QUJD',
    'QUJ',
  ];
  const NUMBER_CANDIDATES = [0, 1, 9999, 10000, -1, 1.5];

  const leaves = (value: unknown, path: (string | number)[] = []): (string | number)[][] =>
    typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(value) ? Number(k) : k]))
      : [path];
  /** One leaf per member of the model (the second line of an invoice tells nothing the first doesn't). */
  const distinctLeaves = (value: unknown) => {
    const seen = new Set<string>();
    return leaves(value).filter((path) => {
      const key = path.map((k) => (typeof k === 'number' ? '*' : k)).join('/');
      return !seen.has(key) && seen.add(key);
    });
  };
  const at = (root: unknown, path: (string | number)[]) => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);

  const set = (root: unknown, path: (string | number)[], value: unknown) => {
    const copy = JSON.parse(JSON.stringify(root));
    let node = copy;
    for (const key of path.slice(0, -1)) node = node[key];
    const key = path[path.length - 1];
    if (value === undefined && Array.isArray(node)) node.splice(Number(key), 1);
    else if (value === undefined) delete node[key];
    else node[key] = value;
    return copy;
  };

  const verdicts = (json: unknown) => {
    const jsonValid = validateInvoiceJson(json).problems.length === 0;
    const xml = Buffer.from(invoiceToXml(json as Invoice));
    const read = parseInvoiceXml(xml);
    return { json: jsonValid, reader: !read.refusal && read.problems.length === 0, schema: generatedSchema(xml).valid };
  };

  const check = (invoice: Invoice, path: (string | number)[], candidate: unknown, tally: { accepted: number; refused: number; disagreements: string[] }) => {
    const v = verdicts(set(invoice, path, candidate));
    if (v.json !== v.schema || v.reader !== v.schema) tally.disagreements.push(`${path.join('/')} = ${JSON.stringify(candidate)}: ${JSON.stringify(v)}`);
    if (v.schema) tally.accepted++;
    else tally.refused++;
  };

  // Values keep their JSON type (a string stays a string): the JSON form's own type rules are tested above.
  it('agree on edited values of every member of an invoice', () => {
    const invoice = parseValid(sample('valid', 'IT01234567890_FPA01.xml'));
    const tally = { accepted: 0, refused: 0, disagreements: [] as string[] };
    for (const path of distinctLeaves(invoice)) {
      if (path[0] === 'namespace') continue;
      for (const candidate of typeof at(invoice, path) === 'number' ? NUMBER_CANDIDATES : TEXT_CANDIDATES) check(invoice, path, candidate, tally);
    }
    expect(tally.disagreements).toEqual([]);
    expect(tally.accepted).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(100);
  }, 120_000);

  it.each(['IT01234567890_FPA01.xml', 'oca_IT06363391001_00016_wt.xml', 'oca_IT02780790107_11005.xml'])(
    'agree on removed members and edge values of the blocks of %s',
    (name) => {
      const invoice = parseValid(sample('valid', name));
      const tally = { accepted: 0, refused: 0, disagreements: [] as string[] };
      for (const path of distinctLeaves(invoice)) {
        if (path[0] === 'namespace') continue;
        check(invoice, path, undefined, tally);
        for (const candidate of typeof at(invoice, path) === 'number' ? [0, 10000] : ['', 'é', '22.00', 'QUJ']) check(invoice, path, candidate, tally);
      }
      expect(tally.disagreements).toEqual([]);
      expect(tally.refused).toBeGreaterThan(20);
    },
  );

  function serialize(element: XmlElement, root = true): string {
    const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const name = element.namespace ? `p:${element.name}` : element.name;
    const attributes = Object.entries(element.attributes).map(([k, a]) => ` ${k}="${escape(a.value).replace(/"/g, '&quot;')}"`);
    const ns = root ? ` xmlns:p="${element.namespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` : '';
    return `<${name}${ns}${attributes.join('')}>${element.children.length ? element.children.map((c) => serialize(c, false)).join('') : escape(element.text)}</${name}>`;
  }

  it.each(['IT01234567890_FPA01.xml', 'oca_ITBNCMRA80A01D548T_20001.xml'])('agree on removed, doubled and swapped elements of %s', (name) => {
    const original = tree(sample('valid', name));
    const disagreements: string[] = [];
    const edits: XmlElement[] = [];
    const visit = (element: XmlElement, edit: (make: (children: XmlElement[]) => XmlElement[]) => XmlElement) => {
      element.children.forEach((child, i) => {
        const rebuilt = (children: XmlElement[]) => edit((siblings) => siblings.map((s, j) => (j === i ? { ...child, children } : s)));
        edits.push(edit((siblings) => siblings.filter((_, j) => j !== i)));
        edits.push(edit((siblings) => [...siblings.slice(0, i + 1), child, ...siblings.slice(i + 1)]));
        if (i + 1 < element.children.length) edits.push(edit((siblings) => [...siblings.slice(0, i), siblings[i + 1], child, ...siblings.slice(i + 2)]));
        visit(child, (make) => rebuilt(make(child.children)));
      });
    };
    visit(original, (make) => ({ ...original, children: make(original.children) }));
    for (const edited of edits) {
      const xml = Buffer.from(serialize(edited));
      const read = parseInvoiceXml(xml);
      const reader = !read.refusal && read.problems.length === 0;
      const schema = generatedSchema(xml).valid;
      if (reader !== schema) disagreements.push(`${JSON.stringify({ reader, schema })}: ${read.problems.map((p) => p.message).join('; ')}`);
    }
    expect(edits.length).toBeGreaterThan(200);
    expect(disagreements).toEqual([]);
  });
});
