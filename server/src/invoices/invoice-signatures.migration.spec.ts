import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { databaseBefore } from '../../test/database.js';
import { sample } from '../../test/fatturapa-oracle.js';
import { parseInvoiceXml } from './fatturapa/index.js';
import { InvoiceSignatures1795463100000 } from '../../../migrations/1795463100000-invoice-signatures.js';

/** The migration that gives invoices stored before the JSON form kept signatures their `signature` member. */
describe('migration: the signature of invoices stored without it in their JSON', () => {
  let db: DataSource;
  let drop: () => Promise<void>;
  let company: string;

  beforeAll(async () => {
    ({ db, drop } = await databaseBefore(InvoiceSignatures1795463100000));
    [{ id: company }] = await db.query(
      `INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ('Rossi', 'IT01234567897', 'IT', 'RF01') RETURNING id`,
    );
  });

  afterAll(() => drop());

  const signed = sample('valid', 'invopop_invoice-despatch.xml');
  const unsigned = sample('valid', 'IT01234567890_FPR01.xml');
  const json = (xml: Buffer) => {
    const { invoice } = parseInvoiceXml(xml);
    if (!invoice) throw new Error('the sample must be valid');
    return invoice as unknown as Record<string, unknown>;
  };
  /** The JSON as the reader wrote it before it kept signatures. */
  const oldJson = (xml: Buffer) => {
    const { signature: _signature, ...rest } = json(xml);
    return rest;
  };

  /** `count` invoices with this file and JSON, written as the old code did; their document ids. */
  async function store(first: number, count: number, xml: Buffer, invoice: object): Promise<string[]> {
    const ids: { id: string }[] = await db.query(
      `INSERT INTO documents (company_id, number, type, status, direction, currency, gross_amount, vat_amount, creation_date, format)
       SELECT $1, n::text, 'INVOICE', 'SENT', 'ISSUED', 'EUR', 100, 22, '2026-01-02', 'FPR12' FROM generate_series($2::int, $3::int) n
       RETURNING id`,
      [company, first, first + count - 1],
    );
    await db.query(
      `INSERT INTO invoices (document_id, company_id, progressivo_invio, source, xml, invoice)
       SELECT d.id, $1, lpad(d.number, 5, '0'), 'xml', $2, $3 FROM documents d WHERE d.id = ANY($4::uuid[])`,
      [company, xml, JSON.stringify(invoice), ids.map((r) => r.id)],
    );
    return ids.map((r) => r.id);
  }
  const invoiceOf = async (id: string) => (await db.query('SELECT invoice FROM invoices WHERE document_id = $1', [id]))[0].invoice;

  it('reads the signature back from the stored file, in rounds, and leaves every other invoice alone; a second run changes nothing', async () => {
    const expected = json(signed);
    expect(expected.signature).toMatch(/^<ds:Signature /);
    // More than one round of rows to read (the migration reads 100 at a time).
    const old = await store(1, 250, signed, oldJson(signed));
    const [plain] = await store(1001, 1, unsigned, oldJson(unsigned));
    // 'Signature>' in a description: a candidate by its bytes, and no signature.
    const lookalike = Buffer.from(unsigned.toString('utf8').replace(/<Descrizione>[^<]*</, '<Descrizione>Firma (Signature> 1)<'), 'utf8');
    expect(lookalike.equals(unsigned)).toBe(false);
    const [mention] = await store(1002, 1, lookalike, oldJson(unsigned));
    // Already written by the new reader: left as it is.
    const [current] = await store(1003, 1, signed, {
      ...expected,
      signature: '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#">kept</ds:Signature>',
    });

    await db.runMigrations({ transaction: 'each' });

    for (const id of old) expect(await invoiceOf(id)).toEqual(expected);
    expect(await invoiceOf(plain)).toEqual(oldJson(unsigned));
    expect(await invoiceOf(mention)).toEqual(oldJson(unsigned));
    expect((await invoiceOf(current)).signature).toMatch(/>kept</);

    // Idempotent: run again by hand, it finds nothing to write.
    await db.query(`UPDATE invoices SET invoice = invoice - 'signature' || '{"signature": "edited"}' WHERE document_id = $1`, [old[0]]);
    const before = await db.query('SELECT document_id, invoice FROM invoices ORDER BY document_id');
    const runner = db.createQueryRunner();
    try {
      await new InvoiceSignatures1795463100000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await db.query('SELECT document_id, invoice FROM invoices ORDER BY document_id')).toEqual(before);
  });
});
