import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Account } from '../accounts/account.entity.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { ApiError } from '../common/errors/api-error.js';
import { requireUuid } from '../common/validation/uuid.js';
import { reconcileByIdentifier } from '../reconciliations/auto-reconcile.js';
import { TransactionsRepository } from '../transactions/transactions.repository.js';
import { parseStatement, type ImportedTransaction, type RowProblem } from './transactions-csv.js';

/** Imports a CSV bank statement into one account: every row is valid and imported, or nothing is. */

export class CsvImportError extends Error {
  constructor(
    message: string,
    /** Every bad row, when the file itself was the problem. */
    readonly problems: RowProblem[] = [],
  ) {
    super(message);
  }
}

export interface ImportRequest {
  companyId: string;
  accountId: string;
  /** The file's content. */
  csv: string;
}

export interface ImportResult {
  company_id: string;
  account_id: string;
  imported: number;
  /** Reconciliations made with e-invoices whose reconciliation_identifier the descriptions carry. */
  reconciled: number;
}

const notUuid = (what: string) => (value: string) => new CsvImportError(`${what} id "${value}" is not a uuid.`);

async function findAccount(dataSource: DataSource, companyId: string, accountId: string): Promise<Account> {
  companyId = requireUuid(companyId, notUuid('Company'));
  accountId = requireUuid(accountId, notUuid('Account'));
  // Another company's account is as absent as an unknown one: the operator named the wrong pair.
  return new AccountsRepository(dataSource).findOwned(dataSource.manager, companyId, accountId).catch((error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    throw new CsvImportError(`Company ${companyId} has no account ${accountId}.`);
  });
}

export async function importTransactions(dataSource: DataSource, request: ImportRequest): Promise<ImportResult> {
  const account = await findAccount(dataSource, request.companyId, request.accountId);
  const { transactions, problems } = parseStatement(request.csv, account.currency?.trim() ?? null);
  if (problems.length > 0) {
    const rows = new Set(problems.map((problem) => problem.line)).size;
    throw new CsvImportError(`Nothing was imported: ${rows} ${rows === 1 ? 'line has' : 'lines have'} problems.`, problems);
  }
  const { reconciled } = await insertTransactions(dataSource, account, transactions);
  return { company_id: account.companyId, account_id: account.id, imported: transactions.length, reconciled };
}

/**
 * Writes checked transactions into the account, all or none, each with its `transaction.created` event (the
 * transaction as GET answers it, built from the inserted rows) in the same statement; then reconciles them as every
 * import does: the CSV import and the development sandbox's helper both come here. Answers the new ids, in the order
 * given.
 */
export async function insertTransactions(
  dataSource: DataSource,
  account: Account,
  transactions: readonly ImportedTransaction[],
): Promise<{ ids: string[]; reconciled: number }> {
  const rows = transactions.map((transaction) => ({ ...transaction, id: randomUUID(), company_id: account.companyId, account_id: account.id }));
  await dataSource.transaction((manager) => new TransactionsRepository(dataSource).insertWithEvents(manager, rows));
  const ids = rows.map((row) => row.id);
  // Once the statement is in: payments that name an invoice's reconciliation_identifier are linked to it.
  const reconciled = await reconcileByIdentifier(dataSource, account.companyId, ids);
  return { ids, reconciled };
}
