import { base, Faker, it } from '@faker-js/faker';
import type pg from 'pg';
import type { EntityManager } from 'typeorm';
import { generateMovements } from './bank-movements.js';
import { copyBatches, insertRows, isBulkLoad, type Row, withConstraintsDeferred } from '../common/database/bulk-insert.js';
import { groupBy } from '../common/database/group-by.js';
import { COLUMNS } from './columns.js';
import { addDays, atMinute, formatCents, todayUtc } from './calendar.js';
import { counterpartRow, generateCounterparts, generateRegistryCompanies, registryEntry } from './counterparts.js';
import { generateDocuments } from './documents.js';
import { eInvoiceFile } from './e-invoice-files.js';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import { guideRows } from './guide.js';
import { AccountBalances, type AccountRow, buildAccounts, buildCategories } from './ledger.js';
import { Random } from './random.js';

/**
 * Fills one company with a year of realistic Italian bookkeeping: accounts, categories, counterparts, documents with
 * flows, bank transactions (some paying those flows, reconciled) and subscriptions. The same seed and `today` give
 * the same data; ids are always fresh, so several companies can hold the same data set side by side.
 */

export interface DataSetOptions {
  seed?: number;
  /** Bank transactions in all, payments of flows included. */
  transactions?: number;
  documents?: number;
  counterparts?: number;
  /** Extra companies for the development counterpart-search registry. */
  registryCompanies?: number;
  /** The day the data set ends (YYYY-MM-DD, exclusive); by default today. */
  today?: string;
}

export const DATA_SET_DEFAULTS = {
  seed: 1,
  transactions: 600,
  documents: 120,
  counterparts: 34,
  registryCompanies: 200,
} as const;

export interface DataSetSummary {
  accountIds: string[];
  counts: {
    categories: number;
    counterparts: number;
    documents: number;
    flows: number;
    transactions: number;
    reconciliations: number;
    registry_companies: number;
  };
}

export interface SeededCompany {
  id: string;
  name: string;
  /** With its country prefix. */
  vatNumber: string;
}

const OPENING_BALANCE_CENTS = 1_500_000;
const EMPLOYEES = 6;

/** Runs inside the caller's transaction (`db`), so a failed seed leaves nothing behind. */
export async function seedCompanyData(db: EntityManager, company: SeededCompany, options: DataSetOptions = {}): Promise<DataSetSummary> {
  if (!db.queryRunner?.isTransactionActive) throw new Error('seedCompanyData must run inside a transaction');
  const settings = { ...DATA_SET_DEFAULTS, today: todayUtc(), ...options };
  const { today } = settings;
  const random = new Random(settings.seed);
  const faker = new Faker({ locale: [it, base] });
  faker.seed(settings.seed);
  const openedOn = addDays(today, -366);
  const openedAt = atMinute(openedOn, 9 * 60);
  const companyId = company.id;

  const categories = buildCategories(companyId, openedAt);
  const { rows: accountRows, accounts } = buildAccounts(companyId, random, openedOn);
  const counterparts = generateCounterparts(faker, random, settings.counterparts);
  const registry = [
    ...counterparts.filter((counterpart) => counterpart.country === 'IT').map(registryEntry),
    ...generateRegistryCompanies(faker, random, settings.registryCompanies),
  ];
  const employees = Array.from({ length: EMPLOYEES }, () => faker.person.fullName());
  const balances = new AccountBalances();

  await insertRows(db, 'categories', COLUMNS.categories, categories.rows);
  await insertRows(db, 'accounts', COLUMNS.accounts, accountRows);
  await insertRows(
    db,
    'counterparts',
    COLUMNS.counterparts,
    counterparts.map((c) => counterpartRow(c, companyId, openedAt)),
  );
  // The registry is shared by every company; a known VAT number keeps its first entry.
  await insertRows(db, 'registry_companies', COLUMNS.registry_companies, dedupeByVat(registry), 'ON CONFLICT (vat_number) DO NOTHING');
  await insertRows(db, 'subscriptions', COLUMNS.subscriptions, [
    { company_id: companyId, status: 'TRIAL', created_at: atMinute(addDays(today, -400), 10 * 60) },
    { company_id: companyId, status: 'ACTIVE', created_at: atMinute(addDays(today, -370), 10 * 60) },
  ]);

  // The guides' own example is one of the documents (and its transfer one of the transactions), when there are any.
  const withGuide = settings.documents > 0 && settings.transactions > 0;
  const ledger = generateDocuments(
    { companyId, companyVatNumber: company.vatNumber, today, random, counterparts, categories: categories.refs, accounts, balances },
    settings.documents - (withGuide ? 1 : 0),
    settings.transactions - (withGuide ? 1 : 0),
  );
  if (withGuide) {
    const issuedInvoices = ledger.documents.filter((row) => row.direction === 'ISSUED' && row.type === 'INVOICE').map((row) => String(row.number));
    const guide = guideRows({ companyId, companyVatNumber: company.vatNumber, today, categories: categories.refs, accounts, balances }, issuedInvoices);
    counterparts.push(guide.counterpart);
    await insertRows(db, 'counterparts', COLUMNS.counterparts, [counterpartRow(guide.counterpart, companyId, openedAt)]);
    await insertRows(db, 'registry_companies', COLUMNS.registry_companies, [registryEntry(guide.counterpart)], 'ON CONFLICT (vat_number) DO NOTHING');
    ledger.documents.push(guide.document);
    ledger.lines.set(String(guide.document.id), guide.lines);
    ledger.flows.push(guide.flow);
    ledger.payments.push(guide.transaction);
  }
  await insertRows(db, 'documents', COLUMNS.documents, ledger.documents);
  await insertRows(db, 'flows', COLUMNS.flows, ledger.flows);
  // Every e-invoice carries its FatturaPA file, as one created through the API does.
  const counterpartById = new Map(counterparts.map((c) => [c.id, c]));
  const flowsByDocument = groupBy(ledger.flows, (flow) => String(flow.document_id));
  const files = ledger.documents
    .filter((d) => d.is_e_invoice)
    .map((d) =>
      eInvoiceFile(company, d, flowsByDocument.get(String(d.id)) ?? [], ledger.lines.get(String(d.id))!, counterpartById.get(String(d.counterpart_id))!),
    );
  for (let i = 0; i < files.length; i += 500) await insertRows(db, 'invoices', COLUMNS.invoices, files.slice(i, i + 500));
  // The company's own files used its ProgressivoInvio numbers: Flusso's counter continues after them, so an invoice
  // created through the API on this company never takes one of theirs. Without any (a tiny data set) it starts at 1.
  const lastFile = lastProgressivo(ledger.documents, company.vatNumber);
  if (lastFile > 0) await new InvoicesRepository(db.connection).continueProgressivoAfter(db, companyId, lastFile);
  await insertRows(db, 'transactions', COLUMNS.transactions, ledger.payments);
  await insertRows(db, 'reconciliations', COLUMNS.reconciliations, ledger.reconciliations);

  const suppliers = counterparts.filter((c) => c.kind.role === 'SUPPLIER');
  const movementCount = Math.max(0, settings.transactions - ledger.payments.length);
  const movements = generateMovements(
    { companyId, companyName: company.name, today, random, accounts, categories: categories.refs, balances, suppliers, employees },
    movementCount,
  );
  const moved = await loadMovements(db, movements, movementCount);
  await setBalances(db, accountRows, balances, today);

  return {
    accountIds: accountRows.map((row) => row.id),
    counts: {
      categories: categories.rows.length,
      counterparts: counterparts.length,
      documents: ledger.documents.length,
      flows: ledger.flows.length,
      transactions: ledger.payments.length + moved,
      reconciliations: ledger.reconciliations.length,
      registry_companies: registry.length,
    },
  };
}

/** Streams the bank movements in; a large load sets the table's indexes and foreign keys aside meanwhile. */
async function loadMovements(db: EntityManager, movements: Iterable<Row[]>, count: number): Promise<number> {
  const client = (await db.queryRunner!.connect()) as pg.ClientBase;
  const copy = () => copyBatches(client, 'transactions', COLUMNS.transactions, movements);
  return (await isBulkLoad(db, 'transactions', count)) ? withConstraintsDeferred(db, 'transactions', copy) : copy();
}

/** Balances as of yesterday evening: an opening balance plus every generated movement. */
async function setBalances(db: EntityManager, accounts: AccountRow[], balances: AccountBalances, today: string): Promise<void> {
  for (const account of accounts) {
    const net = balances.of(account.id);
    // The balance a year ago is nowhere on record: take one that leaves the account in credit today.
    const currentCents = OPENING_BALANCE_CENTS + Math.max(0, -net) + net;
    const availableCents = currentCents + Math.round(Number(account.credit_limit) * 100);
    await db.query('UPDATE accounts SET current_balance = $2, available_balance = $3, balance_date = $4 WHERE id = $1', [
      account.id,
      formatCents(currentCents),
      formatCents(availableCents),
      atMinute(addDays(today, -1), 23 * 60),
    ]);
  }
}

function dedupeByVat<T extends { vat_number: string }>(rows: T[]): T[] {
  const seen = new Map<string, T>();
  for (const row of rows) if (!seen.has(row.vat_number)) seen.set(row.vat_number, row);
  return [...seen.values()];
}

/** The highest ProgressivoInvio among the company's own files (`{vat number}_{progressivo}.xml`, base 36), or 0. */
function lastProgressivo(documents: readonly Row[], vatNumber: string): number {
  const own = documents.map((d) => String(d.file_name ?? '')).filter((name) => name.startsWith(`${vatNumber}_`));
  return Math.max(0, ...own.map((name) => parseInt(name.slice(vatNumber.length + 1, -'.xml'.length), 36)));
}
