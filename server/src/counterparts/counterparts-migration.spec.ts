import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { databaseBefore } from '../../test/database.js';
import { CounterpartsWritable1795432671468 } from '../../../migrations/1795432671468-counterparts-writable.js';

/**
 * The migration that makes VAT numbers unique per company, run on counterparts written before it: duplicates (in any
 * spelling) are merged into the oldest, which keeps its documents and takes the members it lacks.
 */
describe('migration: one counterpart per VAT number', () => {
  let db: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await databaseBefore(CounterpartsWritable1795432671468));
  });

  afterAll(() => drop());

  it('merges duplicates into the oldest, moves their documents and keeps every other counterpart', async () => {
    const [{ id: company }] = await db.query(
      `INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ('Rossi', 'IT01234567897', 'IT', 'RF01') RETURNING id`,
    );
    const [{ id: other }] = await db.query(
      `INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ('Verdi', 'IT01234567897', 'IT', 'RF01') RETURNING id`,
    );
    const counterpart = async (companyId: string, minutes: number, values: Record<string, string | null>): Promise<string> => {
      const columns = Object.keys(values);
      const [{ id }] = await db.query(
        `INSERT INTO counterparts (company_id, created_at, ${columns.join(', ')})
         VALUES ($1, timestamptz '2026-01-01 10:00Z' + $2 * interval '1 minute', ${columns.map((_, i) => `$${i + 3}`).join(', ')}) RETURNING id`,
        [companyId, minutes, ...Object.values(values)],
      );
      return id;
    };
    const oldest = await counterpart(company, 0, { company_name: 'Bianchi', vat_number: 'IT12345678903', city: null, destination_code: null });
    const second = await counterpart(company, 1, { company_name: 'Bianchi Impianti', vat_number: '12345678903', city: 'Milano', destination_code: null });
    const third = await counterpart(company, 2, { company_name: 'BIANCHI', vat_number: 'it 123.456.789-03', city: 'Roma', destination_code: 'M5UXCR1' });
    const distinct = await counterpart(company, 3, { company_name: 'Ferrari', vat_number: 'IT98765432109', city: 'Modena', destination_code: null });
    const blankA = await counterpart(company, 4, { company_name: 'Senza IVA', vat_number: '', city: null, destination_code: null });
    const blankB = await counterpart(company, 5, { company_name: 'Senza IVA', vat_number: ' ', city: null, destination_code: null });
    const elsewhere = await counterpart(other, 6, { company_name: 'Bianchi', vat_number: 'IT12345678903', city: null, destination_code: null });
    const document = async (counterpartId: string, number: string) =>
      (
        await db.query(
          `INSERT INTO documents (company_id, number, type, status, direction, currency, gross_amount, vat_amount, counterpart_id, creation_date)
           VALUES ($1, $2, 'INVOICE', 'DELIVERED', 'ISSUED', 'EUR', 100, 22, $3, '2026-01-02') RETURNING id`,
          [company, number, counterpartId],
        )
      )[0].id;
    const documents = [await document(oldest, '1'), await document(second, '2'), await document(third, '3'), await document(distinct, '4')];

    await db.runMigrations({ transaction: 'each' });

    const rows = await db.query('SELECT id, company_name, vat_number, city, destination_code FROM counterparts ORDER BY created_at');
    expect(rows).toEqual([
      { id: oldest, company_name: 'Bianchi', vat_number: 'IT12345678903', city: 'Milano', destination_code: 'M5UXCR1' },
      { id: distinct, company_name: 'Ferrari', vat_number: 'IT98765432109', city: 'Modena', destination_code: null },
      { id: blankA, company_name: 'Senza IVA', vat_number: null, city: null, destination_code: null },
      { id: blankB, company_name: 'Senza IVA', vat_number: null, city: null, destination_code: null },
      { id: elsewhere, company_name: 'Bianchi', vat_number: 'IT12345678903', city: null, destination_code: null },
    ]);
    const pointers = await db.query('SELECT id, counterpart_id FROM documents ORDER BY number');
    expect(pointers).toEqual(documents.map((id, i) => ({ id, counterpart_id: i < 3 ? oldest : distinct })));
    await expect(
      db.query(`INSERT INTO counterparts (company_id, company_name, vat_number) VALUES ($1, 'Doppione', 'IT12345678903')`, [company]),
    ).rejects.toThrow(/counterparts_company_vat_number/);
  });
});
