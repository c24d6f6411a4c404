import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { databaseBefore } from '../../test/database.js';
import { ReconciliationAmounts1795431734858 } from '../../../migrations/1795431734858-reconciliation-amounts.js';

/**
 * The migration that allocates existing reconciliations (migrations/1795431734858-reconciliation-amounts.ts), run on
 * links made under the old rules, where every flow counted the whole of each transaction linked to it.
 */
describe('migration: reconciliation amounts', () => {
  let db: DataSource;
  let drop: () => Promise<void>;
  const ids: Record<string, string> = {};
  const one = async (query: string, parameters: unknown[] = []) => ((await db.query(query, parameters)) as Array<Record<string, unknown>>)[0];

  beforeAll(async () => {
    ({ db, drop } = await databaseBefore(ReconciliationAmounts1795431734858));
    const insert = async (name: string, query: string, parameters: unknown[]) => (ids[name] = (await one(`${query} RETURNING id`, parameters)).id as string);
    const company = await insert('company', `INSERT INTO companies (name, country, fiscal_regime) VALUES ('Rossi S.r.l.', 'IT', 'RF01')`, []);
    const account = await insert('account', `INSERT INTO accounts (company_id, currency) VALUES ($1, 'EUR')`, [company]);
    const document = (name: string) =>
      insert(
        name,
        `INSERT INTO documents (company_id, number, type, status, direction, currency, gross_amount, vat_amount, creation_date, updated_at)
         VALUES ($1, $2, 'INVOICE', 'DELIVERED', 'ISSUED', 'EUR', 0, 0, '2026-03-01', '2026-03-02T09:00:00Z')`,
        [company, name],
      );
    const flow = (name: string, documentName: string, amount: string, status: string, paymentDate: string | null) =>
      insert(name, `INSERT INTO flows (company_id, document_id, amount, currency, payment_status, payment_date) VALUES ($1, $2, $3, 'EUR', $4, $5)`, [
        company,
        ids[documentName],
        amount,
        status,
        paymentDate,
      ]);
    const transaction = (name: string, amount: string, date: string) =>
      insert(name, `INSERT INTO transactions (company_id, account_id, type, amount, currency, date) VALUES ($1, $2, 'CREDIT', $3, 'EUR', $4)`, [
        company,
        account,
        amount,
        date,
      ]);
    const link = (name: string, flowName: string, transactionName: string, createdAt: string) =>
      insert(name, `INSERT INTO reconciliations (company_id, flow_id, transaction_id, created_at) VALUES ($1, $2, $3, $4)`, [
        company,
        ids[flowName],
        ids[transactionName],
        createdAt,
      ]);

    // One 505.01 transfer made two flows PAID (810.82).
    await document('twice');
    await flow('first', 'twice', '450.75', 'PAID', '2026-04-01');
    await flow('second', 'twice', '360.07', 'PAID', '2026-04-01');
    await transaction('transfer', '505.01', '2026-04-01');
    await link('firstLink', 'first', 'transfer', '2026-04-02T10:00:00Z');
    await link('secondLink', 'second', 'transfer', '2026-04-02T11:00:00Z');
    // A flow its transfer covers, left TO_PAY by a PATCH that lowered its amount.
    await document('covered');
    await flow('stuck', 'covered', '100.00', 'TO_PAY', null);
    await transaction('payment', '100.34', '2026-05-10');
    await link('stuckLink', 'stuck', 'payment', '2026-05-11T10:00:00Z');
    // A flow paid by hand, with a partial payment linked: nothing to correct.
    await document('byHand');
    await flow('handPaid', 'byHand', '800.00', 'PAID', '2026-02-01');
    await transaction('deposit', '100.00', '2026-02-15');
    await link('depositLink', 'handPaid', 'deposit', '2026-02-16T10:00:00Z');

    await db.runMigrations();
  });

  afterAll(() => drop());

  const flow = (name: string) => one('SELECT amount::text, paid_amount::text, payment_status, payment_date::text FROM flows WHERE id = $1', [ids[name]]);
  const allocated = async (name: string) => (await one('SELECT amount::text, currency FROM reconciliations WHERE id = $1', [ids[name]])).amount;
  const document = (name: string) => one('SELECT version, updated_at FROM documents WHERE id = $1', [ids[name]]);

  it('allocates existing links in the order they were made, never more than the transaction carried', async () => {
    expect(await allocated('firstLink')).toBe('450.75');
    expect(await allocated('secondLink')).toBe('54.26');
    expect(await flow('first')).toEqual({ amount: '450.75', paid_amount: '450.75', payment_status: 'PAID', payment_date: '2026-04-01' });
    expect(await flow('second')).toEqual({ amount: '360.07', paid_amount: '54.26', payment_status: 'TO_PAY', payment_date: null });
  });

  it('makes a covered flow PAID on its latest transaction date, never more than the flow', async () => {
    expect(await allocated('stuckLink')).toBe('100.00');
    expect(await flow('stuck')).toEqual({ amount: '100.00', paid_amount: '100.00', payment_status: 'PAID', payment_date: '2026-05-10' });
  });

  it('keeps a status set by hand on a flow its links never covered', async () => {
    expect(await allocated('depositLink')).toBe('100.00');
    expect(await flow('handPaid')).toEqual({ amount: '800.00', paid_amount: '100.00', payment_status: 'PAID', payment_date: '2026-02-01' });
  });

  it('moves the documents of corrected flows to a new version, and only those', async () => {
    for (const name of ['twice', 'covered']) {
      const changed = await document(name);
      expect(changed.version).toBe(2);
      expect((changed.updated_at as Date).getTime()).toBeGreaterThan(Date.parse('2026-03-02T09:00:00Z'));
    }
    expect(await document('byHand')).toEqual({ version: 1, updated_at: new Date('2026-03-02T09:00:00Z') });
  });

  it('refuses from then on a flow allocated more than its amount', async () => {
    await expect(db.query('UPDATE flows SET amount = 10 WHERE id = $1', [ids.first])).rejects.toThrow(/flows_paid_within_amount/);
  });
});
