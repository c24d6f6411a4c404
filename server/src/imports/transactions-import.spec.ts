import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../entities.js';
import { createTenant, type Tenant } from '../demo/seed-demo.js';
import { createTestDatabase } from '../../test/database.js';
import { CsvImportError, importTransactions } from './transactions-import.js';

const fixture = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const settings = { environment: 'development' as const, apiKeyPepper: 'test-pepper' };

describe('importTransactions', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let tenant: Tenant;
  let other: Tenant;
  const count = async (accountId: string) => (await db.query('SELECT count(*)::int AS n FROM transactions WHERE account_id = $1', [accountId]))[0].n as number;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource(database.url).initialize();
    const data = { transactions: 20, documents: 5, today: '2026-04-01' };
    tenant = await createTenant(db, { settings, data });
    other = await createTenant(db, { settings, data });
  });

  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('imports a good statement into the account, signs turned into types', async () => {
    const [accountId] = tenant.accountIds;
    const before = await count(accountId);
    const result = await importTransactions(db, { companyId: tenant.companyId, accountId, csv: await fixture('good-statement.csv') });
    expect(result).toEqual({ company_id: tenant.companyId, account_id: accountId, imported: 4, reconciled: 0 });
    expect(await count(accountId)).toBe(before + 4);

    const [sdd] = await db.query(
      `SELECT type, amount::text, currency, value_date::text, booking_date_time, counterpart_name, clean_description
         FROM transactions WHERE account_id = $1 AND description LIKE 'ADDEBITO SDD CORE LINEA VELOCE%'`,
      [accountId],
    );
    expect(sdd).toEqual({
      type: 'DEBIT',
      amount: '86.40',
      currency: 'EUR',
      value_date: '2026-03-03',
      booking_date_time: null,
      counterpart_name: 'Linea Veloce Telecomunicazioni S.p.A.',
      clean_description: 'Addebito diretto Linea Veloce',
    });
  });

  it('imports nothing from a statement with bad rows, and names each of them', async () => {
    const [accountId] = tenant.accountIds;
    const before = await count(accountId);
    const attempt = importTransactions(db, { companyId: tenant.companyId, accountId, csv: await fixture('bad-statement.csv') });
    await expect(attempt).rejects.toThrow('Nothing was imported: 3 lines have problems.');
    const error = (await attempt.catch((e: unknown) => e)) as CsvImportError;
    expect(error.problems.map((problem) => [problem.line, problem.column])).toEqual([
      [3, 'date'],
      [4, 'amount'],
      [5, 'currency'],
    ]);
    expect(await count(accountId)).toBe(before);
  });

  it('refuses an account of another company', async () => {
    await expect(
      importTransactions(db, { companyId: tenant.companyId, accountId: other.accountIds[0], csv: await fixture('good-statement.csv') }),
    ).rejects.toThrow(`Company ${tenant.companyId} has no account ${other.accountIds[0]}.`);
    await expect(importTransactions(db, { companyId: 'acme', accountId: other.accountIds[0], csv: '' })).rejects.toThrow('Company id "acme" is not a uuid.');
  });
});
