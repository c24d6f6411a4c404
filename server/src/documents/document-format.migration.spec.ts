import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { databaseBefore } from '../../test/database.js';
import { DocumentFormat1795451000000 } from '../../../migrations/1795451000000-document-format.js';

/** The migration that gives documents recorded without a format the one the rule gives (document-format.ts). */
describe('migration: every document has a format', () => {
  let db: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await databaseBefore(DocumentFormat1795451000000));
  });

  afterAll(() => drop());

  it('sets FPA12 on documents issued to a public administration, FPR12 on the others, and keeps formats already set', async () => {
    const [{ id: company }] = await db.query(
      `INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ('Rossi', 'IT01234567897', 'IT', 'RF01') RETURNING id`,
    );
    const counterpart = async (name: string, code: string | null): Promise<string> =>
      (await db.query(`INSERT INTO counterparts (company_id, company_name, destination_code) VALUES ($1, $2, $3) RETURNING id`, [company, name, code]))[0].id;
    const comune = await counterpart('Comune di Borgo Esempio', 'UFZB9P');
    const bianchi = await counterpart('Bianchi', 'M5UXCR1');
    const pec = await counterpart('Verdi', '0000000');
    const document = async (number: string, direction: string, counterpartId: string | null, format: string | null = null) =>
      db.query(
        `INSERT INTO documents (company_id, number, type, status, direction, currency, gross_amount, vat_amount, counterpart_id, creation_date, format)
         VALUES ($1, $2, 'INVOICE', 'DELIVERED', $3, 'EUR', 100, 22, $4, '2026-01-02', $5)`,
        [company, number, direction, counterpartId, format],
      );
    await document('1', 'ISSUED', comune);
    await document('2', 'RECEIVED', comune);
    await document('3', 'ISSUED', bianchi);
    await document('4', 'ISSUED', pec);
    await document('5', 'ISSUED', null);
    await document('6', 'RECEIVED', bianchi, 'FSM10');

    await db.runMigrations({ transaction: 'each' });

    expect(await db.query('SELECT number, format FROM documents ORDER BY number')).toEqual([
      { number: '1', format: 'FPA12' },
      { number: '2', format: 'FPR12' },
      { number: '3', format: 'FPR12' },
      { number: '4', format: 'FPR12' },
      { number: '5', format: 'FPR12' },
      { number: '6', format: 'FSM10' },
    ]);
    await expect(document('7', 'ISSUED', null)).rejects.toThrow(/null value in column "format"/);
  });
});
