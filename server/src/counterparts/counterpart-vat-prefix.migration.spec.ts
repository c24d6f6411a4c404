import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { databaseBefore } from '../../test/database.js';
import { CounterpartVatPrefix1795458000000 } from '../../../migrations/1795458000000-counterpart-vat-prefix.js';

/** The migration that reads once a country prefix that e-invoices repeated in counterparts' VAT numbers. */
describe('migration: counterparts VAT numbers with a doubled country prefix', () => {
  let db: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await databaseBefore(CounterpartVatPrefix1795458000000));
  });

  afterAll(() => drop());

  it('rewrites GBGB… as GB… unless the company already has that number; keeps Swiss UIDs and every other number', async () => {
    const company = async (vat: string): Promise<string> =>
      (await db.query(`INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ('C', $1, 'IT', 'RF01') RETURNING id`, [vat]))[0].id;
    const rossi = await company('IT01234567897');
    const verdi = await company('IT09876543217');
    const counterpart = (companyId: string, name: string, vat: string) =>
      db.query(`INSERT INTO counterparts (company_id, company_name, vat_number, updated_at) VALUES ($1, $2, $3, '2026-01-01')`, [companyId, name, vat]);
    await counterpart(rossi, 'London Ltd', 'GBGB999999973');
    await counterpart(rossi, 'Wien GmbH', 'ATATU12345678');
    await counterpart(rossi, 'Zürich AG', 'CHCHE114993395IVA');
    await counterpart(rossi, 'Milano Srl', 'IT01234567890');
    await counterpart(rossi, 'Paris SA', 'FR12345678901');
    // Verdi has both forms of one number: the doubled one stays for a person to merge.
    await counterpart(verdi, 'London Ltd', 'GBGB999999973');
    await counterpart(verdi, 'London Ltd (again)', 'GB999999973');

    await db.runMigrations({ transaction: 'each' });

    const rows = await db.query(
      `SELECT c.company_name AS name, c.vat_number AS vat, c.updated_at > '2026-01-02' AS touched
         FROM counterparts c ORDER BY c.company_id = $1 DESC, c.company_name`,
      [rossi],
    );
    expect(rows).toEqual([
      { name: 'London Ltd', vat: 'GB999999973', touched: true },
      { name: 'Milano Srl', vat: 'IT01234567890', touched: false },
      { name: 'Paris SA', vat: 'FR12345678901', touched: false },
      { name: 'Wien GmbH', vat: 'ATU12345678', touched: true },
      { name: 'Zürich AG', vat: 'CHCHE114993395IVA', touched: false },
      { name: 'London Ltd', vat: 'GBGB999999973', touched: false },
      { name: 'London Ltd (again)', vat: 'GB999999973', touched: false },
    ]);
  });
});
