import { isISO4217CurrencyCode } from 'class-validator';
import { CsvError, parse } from 'csv-parse/sync';
import { isCalendarDate } from '../common/validation/calendar-date.js';
import type { TransactionType } from '../transactions/transaction.entity.js';

/**
 * Reads a bank statement exported as CSV into transactions, checking every row. The columns are documented in the
 * README ("Importing bank transactions from CSV"); keep the two in step.
 */

export const CSV_COLUMNS = [
  'date',
  'amount',
  'type',
  'currency',
  'description',
  'value_date',
  'booking_date_time',
  'counterpart_name',
  'clean_description',
] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

/** A row that cannot be imported, located the way a spreadsheet shows it (the header is line 1). */
export interface RowProblem {
  line: number;
  column: CsvColumn | null;
  message: string;
}

export interface ImportedTransaction {
  type: TransactionType;
  /** Non-negative exact decimal; the direction is in `type`. */
  amount: string;
  currency: string;
  date: string;
  value_date: string | null;
  booking_date_time: string | null;
  description: string | null;
  clean_description: string | null;
  counterpart_name: string | null;
}

export interface ParsedStatement {
  transactions: ImportedTransaction[];
  problems: RowProblem[];
}

const SIGNED_AMOUNT = /^-?\d{1,15}(\.\d{1,6})?$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const MAX_TEXT = 1000;

class RowError extends Error {
  constructor(
    readonly column: CsvColumn,
    message: string,
  ) {
    super(message);
  }
}

function calendarDate(column: CsvColumn, value: string): string {
  if (!isCalendarDate(value)) throw new RowError(column, `"${value}" is not a date in the form YYYY-MM-DD`);
  return value;
}

function dateTime(value: string): string {
  const match = DATE_TIME.exec(value);
  if (!match || !isCalendarDate(match[1])) {
    throw new RowError('booking_date_time', `"${value}" is not an ISO 8601 date-time with a time zone, such as 2026-03-02T09:30:00+01:00`);
  }
  return new Date(value).toISOString();
}

function text(column: CsvColumn, value: string | undefined): string | null {
  if (!value) return null;
  if (value.length > MAX_TEXT) throw new RowError(column, `is longer than ${MAX_TEXT} characters`);
  return value;
}

/** Amount and direction: a signed amount, or a non-negative one with a CREDIT/DEBIT type column. */
function movement(fields: Partial<Record<CsvColumn, string>>, hasTypeColumn: boolean): { type: TransactionType; amount: string } {
  const raw = fields.amount || missing('amount');
  if (!SIGNED_AMOUNT.test(raw)) {
    const hint = /^-?[\d.]*,\d+$/.test(raw) ? ' (write decimals with a dot, without thousands separators: 1234.56)' : '';
    throw new RowError('amount', `"${raw}" is not a decimal number${hint}`);
  }
  const negative = raw.startsWith('-');
  const amount = negative ? raw.slice(1) : raw;
  if (hasTypeColumn) {
    const type = (fields.type ?? '').toUpperCase();
    if (type !== 'CREDIT' && type !== 'DEBIT') throw new RowError('type', `must be CREDIT or DEBIT, got "${fields.type ?? ''}"`);
    if (negative) throw new RowError('amount', 'must not be negative when a type column gives the direction');
    return { type, amount };
  }
  if (Number(amount) === 0) throw new RowError('amount', 'must not be zero: its sign tells a credit from a debit');
  return { type: negative ? 'DEBIT' : 'CREDIT', amount };
}

function currency(value: string | undefined, accountCurrency: string | null): string {
  const code = (value || accountCurrency || '').toUpperCase();
  if (!code) throw new RowError('currency', 'is required: the account has no currency of its own');
  if (!isISO4217CurrencyCode(code)) throw new RowError('currency', `"${value}" is not an ISO 4217 currency code such as EUR`);
  return code;
}

/** The row as a transaction, or every reason it is not one. */
function toTransaction(fields: Partial<Record<CsvColumn, string>>, hasTypeColumn: boolean, accountCurrency: string | null): ImportedTransaction | RowError[] {
  const errors: RowError[] = [];
  const check = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      errors.push(error);
      return undefined as T;
    }
  };
  const transaction: ImportedTransaction = {
    ...check(() => movement(fields, hasTypeColumn)),
    currency: check(() => currency(fields.currency, accountCurrency)),
    date: check(() => (fields.date ? calendarDate('date', fields.date) : missing('date'))),
    value_date: check(() => (fields.value_date ? calendarDate('value_date', fields.value_date) : null)),
    booking_date_time: check(() => (fields.booking_date_time ? dateTime(fields.booking_date_time) : null)),
    description: check(() => text('description', fields.description)),
    clean_description: check(() => text('clean_description', fields.clean_description)),
    counterpart_name: check(() => text('counterpart_name', fields.counterpart_name)),
  };
  return errors.length > 0 ? errors : transaction;
}

function missing(column: CsvColumn): never {
  throw new RowError(column, 'is required');
}

/** Spreadsheets set to Italian export with semicolons: the header row tells which separator the file uses. */
function delimiterOf(csv: string): string {
  const header = csv.slice(0, csv.indexOf('\n') === -1 ? csv.length : csv.indexOf('\n'));
  return (header.match(/;/g)?.length ?? 0) > (header.match(/,/g)?.length ?? 0) ? ';' : ',';
}

function headerProblems(header: string[]): RowProblem[] {
  const problems: RowProblem[] = [];
  header.forEach((name, index) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
      problems.push({ line: 1, column: null, message: `unknown column "${name}"; the columns are ${CSV_COLUMNS.join(', ')}` });
    } else if (header.indexOf(name) !== index) {
      problems.push({ line: 1, column: name as CsvColumn, message: `column "${name}" appears twice` });
    }
  });
  for (const required of ['date', 'amount'] as const) {
    if (!header.includes(required)) problems.push({ line: 1, column: required, message: `the header row has no "${required}" column` });
  }
  return problems;
}

/** Every row checked; `problems` lists each bad one, and the statement is importable only when it is empty. */
export function parseStatement(csv: string, accountCurrency: string | null): ParsedStatement {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, csv-parse returns each record with where it ended; its types do not say so.
    records = parse(csv, {
      bom: true,
      delimiter: delimiterOf(csv),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    return { transactions: [], problems: [{ line: (error as CsvError & { lines?: number }).lines ?? 1, column: null, message: error.message }] };
  }
  if (records.length === 0) return { transactions: [], problems: [{ line: 1, column: null, message: 'the file is empty: a header row is required' }] };

  const header = records[0].record.map((name) => name.toLowerCase());
  const problems = headerProblems(header);
  if (problems.length > 0) return { transactions: [], problems };

  const transactions: ImportedTransaction[] = [];
  for (const { record, info } of records.slice(1)) {
    if (record.length !== header.length) {
      problems.push({ line: info.lines, column: null, message: `has ${record.length} fields, the header has ${header.length}` });
      continue;
    }
    const fields = Object.fromEntries(header.map((name, index) => [name, record[index]])) as Partial<Record<CsvColumn, string>>;
    const result = toTransaction(fields, header.includes('type'), accountCurrency);
    if (Array.isArray(result)) problems.push(...result.map((error) => ({ line: info.lines, column: error.column, message: error.message })));
    else transactions.push(result);
  }
  if (transactions.length === 0 && problems.length === 0) {
    problems.push({ line: 1, column: null, message: 'the file has a header row but no transactions' });
  }
  return { transactions, problems };
}
