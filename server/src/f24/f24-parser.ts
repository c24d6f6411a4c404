import { isValidCodiceFiscale, isValidPartitaIva } from '../common/validation/italian-identifiers.js';
import { isCalendarDate } from '../common/validation/calendar-date.js';
import {
  CREDIT_LABEL,
  DEBIT_LABEL,
  F24_SECTIONS,
  F24_TABLES,
  fromCents,
  SEMPLIFICATO_SECTIONS,
  toCents,
  type F24Line,
  type F24LineField,
  type F24Reading,
  type F24Section,
  type F24SectionKind,
  type F24SectionLayout,
  type F24TableColumn,
  type F24TableLayout,
} from './f24-form.js';
import type { PageLine, PageWord, ReadPage } from './f24-words.js';

/**
 * Reads an F24 from the lines of its pages (text layer or OCR, the same rules), on any of its three printings (the
 * ordinary form, the semplificato, the Elide: f24-form.ts), and checks what can be checked: the contributor's codice
 * fiscale and its check character, each section's totals against its lines and its saldo (on the ordinary form, the
 * only one that prints them), the saldo finale against the sections, the payment date. Anything read but not sure (an OCR word below
 * MIN_CONFIDENCE, an amount that is not one) fails the form with its reason: a wrong amount is never answered.
 * Pure: no Nest, no database.
 */

export const F24_FAILURE_REASONS = [
  'unreadable_file',
  'not_an_f24',
  'tax_code_unreadable',
  'tax_code_invalid',
  'contributor_not_company',
  'amount_unreadable',
  'field_unreadable',
  'section_totals_mismatch',
  'saldo_mismatch',
  'payment_date_unreadable',
] as const;
export type F24FailureReason = (typeof F24_FAILURE_REASONS)[number];

export interface F24Failure {
  reason: F24FailureReason;
  detail: string;
}

export type F24ParseResult = { ok: true; reading: F24Reading } | { ok: false; failure: F24Failure };

/** OCR words below this confidence are not trusted where an amount, the tax code or the date is read. */
export const MIN_CONFIDENCE = 70;

const AMOUNT = /^-?\d{1,3}(?:\.\d{3})*,\d{2}$/;
/** Something that wants to be an amount (digits around a comma or dot at the end) but may not be one. */
const AMOUNT_LIKE = /^-?[\d.,]*[.,]\d{1,3}$/;

class Unsure extends Error {
  constructor(readonly failure: F24Failure) {
    super(failure.detail);
  }
}

const fail = (reason: F24FailureReason, detail: string): never => {
  throw new Unsure({ reason, detail });
};

const normal = (text: string) =>
  text
    .toUpperCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
const lineText = (line: PageLine) => normal(line.words.map((w) => w.text).join(' '));
const centre = (word: { x0: number; x1: number }) => (word.x0 + word.x1) / 2;

/** `1.234,56` → `1234.56`; the word's confidence must be enough. */
function amountOf(word: PageWord, where: string): string {
  if (!AMOUNT.test(word.text)) fail('amount_unreadable', `"${word.text}" in ${where} is not an amount.`);
  if (word.confidence < MIN_CONFIDENCE)
    fail('amount_unreadable', `The amount ${word.text} in ${where} was not read with enough confidence (${Math.round(word.confidence)}%).`);
  return fromCents(toCents(word.text.replace(/\./g, '').replace(',', '.')));
}

/**
 * A line's words as labels are compared: OCR joins words with a dot ("IMPORTI.A") and hangs punctuation on them
 * ("RATEAZIONE:"), so words are split at a dot or colon before a letter (each part keeps its share of the width) and
 * compared without punctuation.
 */
function labelTokens(line: PageLine): Array<{ text: string; x0: number; x1: number }> {
  return line.words.flatMap((word) => {
    const parts = normal(word.text).split(/[.:](?=[A-Z])/);
    const width = (word.x1 - word.x0) / word.text.length;
    let offset = 0;
    return parts.map((part) => {
      const x0 = word.x0 + offset * width;
      offset += part.length + 1;
      return { text: part.replace(/[^A-Z0-9]/g, ''), x0, x1: x0 + part.length * width };
    });
  });
}

/** Where a label's words sit on a line: its left edge and centre, or null when the line does not carry it. */
function findLabel(line: PageLine, label: string): { x0: number; centre: number } | null {
  const wanted = label.replace(/[^A-Z0-9 ]/g, '').split(' ');
  const tokens = labelTokens(line);
  for (let i = 0; i + wanted.length <= tokens.length; i++) {
    if (wanted.every((w, j) => tokens[i + j].text === w)) {
      const first = tokens[i];
      const last = tokens[i + wanted.length - 1];
      return { x0: first.x0, centre: (first.x0 + last.x1) / 2 };
    }
  }
  return null;
}

const SECTION_TITLES: Array<{ layout: F24SectionLayout; words: string }> = F24_SECTIONS.map((layout) => ({
  layout,
  words: layout.kind === 'TRIBUTI_LOCALI' ? 'TRIBUTI LOCALI' : layout.kind === 'ALTRI_ENTI' ? 'ALTRI ENTI' : layout.title,
}));

interface Header {
  columns: Array<{ field: F24LineField; x0: number }>;
  debit: number;
  credit: number;
}

function readHeader(line: PageLine, layout: F24SectionLayout): Header | null {
  const debit = findLabel(line, DEBIT_LABEL);
  const credit = findLabel(line, CREDIT_LABEL);
  if (!debit || !credit) return null;
  const columns = layout.columns.flatMap((column) => {
    const found = findLabel(line, column.label);
    return found ? [{ field: column.field, x0: found.x0 }] : [];
  });
  return { columns, debit: debit.centre, credit: credit.centre };
}

function nearest<T>(items: T[], distance: (item: T) => number): T {
  return items.reduce((best, item) => (distance(item) < distance(best) ? item : best));
}

function readLine(line: PageLine, header: Header, layout: F24SectionLayout, index: number): F24Line {
  const where = `line ${index + 1} of the ${layout.title} section`;
  const result: F24Line = { code: '', office: null, reference: null, period: null, debit: null, credit: null };
  const amounts = line.words.filter((w) => AMOUNT.test(w.text) || AMOUNT_LIKE.test(w.text));
  for (const word of amounts) {
    const amount = amountOf(word, where);
    const column = Math.abs(centre(word) - header.debit) <= Math.abs(centre(word) - header.credit) ? 'debit' : 'credit';
    if (result[column] !== null) fail('amount_unreadable', `${where} has two amounts in one column.`);
    result[column] = amount;
  }
  const identifying = line.words.filter((w) => !amounts.includes(w));
  if (header.columns.length === 0) fail('not_an_f24', `The columns of the ${layout.title} section were not found.`);
  for (const word of identifying) {
    const column = nearest(header.columns, (c) => Math.abs(c.x0 - word.x0));
    const current = result[column.field];
    // OCR reads a zero beside digits as the letter O now and then ("RCO1"); no code of the form has an O there.
    const text = word.confidence < 100 ? word.text.replace(/(?<=\d)O|O(?=\d)/g, '0') : word.text;
    result[column.field] = current ? `${current} ${text}` : text;
  }
  if (!result.code) fail('not_an_f24', `${where} has no codice tributo or causale.`);
  const unsure = identifying.find((w) => w.confidence < MIN_CONFIDENCE);
  if (unsure) fail('field_unreadable', `"${unsure.text}" in ${where} was not read with enough confidence (${Math.round(unsure.confidence)}%).`);
  return result;
}

function readTotals(line: PageLine, layout: F24SectionLayout, lines: F24Line[]): F24Section {
  const where = `the totals of the ${layout.title} section`;
  const words = line.words.filter((w) => AMOUNT.test(w.text) || AMOUNT_LIKE.test(w.text));
  if (words.length !== 3) fail('amount_unreadable', `${where} should show three amounts (debit, credit, saldo), ${words.length} were read.`);
  const [debit, credit, balance] = words.map((w) => amountOf(w, where));
  const sum = (field: 'debit' | 'credit') => lines.reduce((total, l) => total + (l[field] ? toCents(l[field]) : 0), 0);
  if (sum('debit') !== toCents(debit) || sum('credit') !== toCents(credit)) {
    fail(
      'section_totals_mismatch',
      `The ${layout.title} section's lines add up to ${fromCents(sum('debit'))} debit and ${fromCents(sum('credit'))} credit, its totals say ${debit} and ${credit}.`,
    );
  }
  if (toCents(debit) - toCents(credit) !== toCents(balance)) {
    fail('section_totals_mismatch', `The ${layout.title} section's saldo ${balance} is not its debit ${debit} less its credit ${credit}.`);
  }
  return { kind: layout.kind, lines, total_debit: debit, total_credit: credit, balance };
}

function readTaxCode(lines: PageLine[]): string {
  const line = lines.find((l) => findLabel(l, 'CODICE FISCALE'));
  if (!line) return fail('tax_code_unreadable', "The contributor's CODICE FISCALE was not found.");
  const label = findLabel(line, 'CODICE FISCALE')!;
  const after = line.words.filter((w) => w.x0 > label.x0 && !['CODICE', 'FISCALE'].includes(normal(w.text)));
  if (after.some((w) => w.confidence < MIN_CONFIDENCE)) fail('tax_code_unreadable', "The contributor's codice fiscale was not read with enough confidence.");
  const compact = normal(after.map((w) => w.text).join('')).replace(/[^A-Z0-9]/g, '');
  const taxCode = /^\d{11}/.test(compact) ? compact.slice(0, 11) : compact.slice(0, 16);
  if (!taxCode) fail('tax_code_unreadable', "The contributor's codice fiscale is empty.");
  const valid = taxCode.length === 11 ? isValidPartitaIva(taxCode) : isValidCodiceFiscale(taxCode);
  if (!valid) fail('tax_code_invalid', `The contributor's codice fiscale ${taxCode} fails its check character.`);
  return taxCode;
}

function readPaymentDate(lines: PageLine[]): string {
  for (const line of lines) {
    const index = line.words.findIndex((w) => normal(w.text) === 'DATA');
    if (index < 0) continue;
    const rest = line.words.slice(index + 1, index + 4);
    const match = /^(\d{2})[/.\- ]?(\d{2})[/.\- ]?(\d{4})/.exec(rest.map((w) => w.text).join(' '));
    if (!match) continue;
    if (rest.some((w) => w.confidence < MIN_CONFIDENCE)) fail('payment_date_unreadable', 'The payment date was not read with enough confidence.');
    const date = `${match[3]}-${match[2]}-${match[1]}`;
    if (!isCalendarDate(date)) fail('payment_date_unreadable', `The payment date ${match[0]} is not a date.`);
    return date;
  }
  return fail('payment_date_unreadable', 'The payment date (DATA in ESTREMI DEL VERSAMENTO) was not found.');
}

interface TableHeader {
  columns: Array<{ column: F24TableColumn; x0: number; centre: number }>;
}

/** The header of a one-table form: its first row, where the amounts' columns and every identifying one must be found. */
function readTableHeader(line: PageLine, layout: F24TableLayout): TableHeader | null {
  const columns = layout.columns.flatMap((column) => {
    const found = findLabel(line, column.label);
    return found ? [{ column, ...found }] : [];
  });
  if (!columns.some((c) => c.column.field === 'debit')) return null;
  const missing = layout.columns.find((column) => column.field !== null && !columns.some((c) => c.column === column));
  if (missing) fail('field_unreadable', `The column ${missing.label} of the ${layout.title} table was not found.`);
  return { columns };
}

/** The header's second row (the rest of its labels) has no amount and only words of those labels. */
function isHeaderRest(line: PageLine, layout: F24TableLayout): boolean {
  const words = new Set(layout.columns.flatMap((c) => (c.under ?? '').split(' ')).map((w) => w.replace(/[^A-Z0-9]/g, '')));
  return labelTokens(line).every((t) => words.has(t.text));
}

/** A line of a one-table form: its section (the semplificato's Sezione; the Elide's are all Erario) and the line. */
function readTableLine(line: PageLine, header: TableHeader, layout: F24TableLayout, index: number): { kind: F24SectionKind; line: F24Line } {
  const where = `line ${index + 1} of the ${layout.title} table`;
  const result: F24Line = { code: '', office: null, reference: null, period: null, debit: null, credit: null };
  const amountColumns = header.columns.filter((c) => ['debit', 'credit', 'deduction'].includes(c.column.field ?? ''));
  const otherColumns = header.columns.filter((c) => !amountColumns.includes(c));
  const amounts = line.words.filter((w) => AMOUNT.test(w.text) || AMOUNT_LIKE.test(w.text));
  for (const word of amounts) {
    const amount = amountOf(word, where);
    const field = nearest(amountColumns, (c) => Math.abs(c.centre - centre(word))).column.field as 'debit' | 'credit' | 'deduction';
    if (field === 'deduction') continue;
    if (result[field] !== null) fail('amount_unreadable', `${where} has two amounts in one column.`);
    result[field] = amount;
  }
  let section: string | null = null;
  const identifying = line.words.filter((w) => !amounts.includes(w));
  for (const word of identifying) {
    const { field } = nearest(otherColumns, (c) => Math.abs(c.x0 - word.x0)).column;
    if (field === null) continue;
    // The codes of these printings are letters, digits and a slash (a month); OCR hangs specks on them as dots and colons.
    const read = word.confidence < 100 ? word.text.replace(/(?<=\d)O|O(?=\d)/g, '0') : word.text;
    const text = read.replace(/[^0-9A-Za-z/]/g, '');
    if (!text) continue;
    if (field === 'section') section = section ? `${section}${text}` : text;
    else {
      const key = field as F24LineField;
      result[key] = result[key] ? `${result[key]} ${text}` : text;
    }
  }
  const unsure = identifying.find((w) => w.confidence < MIN_CONFIDENCE);
  if (unsure) fail('field_unreadable', `"${unsure.text}" in ${where} was not read with enough confidence (${Math.round(unsure.confidence)}%).`);
  if (!result.code) fail('not_an_f24', `${where} has no codice tributo.`);
  if (layout.model === 'ELIDE') return { kind: 'ERARIO', line: result };
  const kind = section ? SEMPLIFICATO_SECTIONS[normal(section)] : undefined;
  if (!kind)
    fail('field_unreadable', `${where}: its Sezione ${section ? `"${section}"` : '(empty)'} is none of ${Object.keys(SEMPLIFICATO_SECTIONS).join(', ')}.`);
  return { kind: kind!, line: result };
}

/** The sections of a one-table form: its lines grouped by section in the order they first appear, totals added up. */
function tableSections(read: Array<{ kind: F24SectionKind; line: F24Line }>): F24Section[] {
  const kinds = [...new Set(read.map((r) => r.kind))];
  return kinds.map((kind) => {
    const lines = read.filter((r) => r.kind === kind).map((r) => r.line);
    const sum = (field: 'debit' | 'credit') => lines.reduce((total, l) => total + (l[field] ? toCents(l[field]) : 0), 0);
    return { kind, lines, total_debit: fromCents(sum('debit')), total_credit: fromCents(sum('credit')), balance: fromCents(sum('debit') - sum('credit')) };
  });
}

/** The semplificato's or the Elide's table, from its header to the saldo finale. */
function readTable(lines: PageLine[], layout: F24TableLayout): { sections: F24Section[]; saldo: string | null } {
  let header: TableHeader | null = null;
  let saldo: string | null = null;
  const read: Array<{ kind: F24SectionKind; line: F24Line }> = [];
  const start = lines.findIndex((line) => lineText(line).includes(layout.title));
  for (const line of lines.slice(start + 1)) {
    if (lineText(line).includes('SALDO FINALE')) {
      saldo = readSaldo(line);
      break;
    }
    if (!header) {
      header = readTableHeader(line, layout);
      continue;
    }
    const hasAmount = line.words.some((w) => AMOUNT.test(w.text) || AMOUNT_LIKE.test(w.text));
    if (!hasAmount && isHeaderRest(line, layout)) continue;
    // A row with nothing to pay or offset is an empty row of the form; what it might have held is caught by the saldo.
    if (!hasAmount) continue;
    read.push(readTableLine(line, header, layout, read.length));
  }
  if (!header) fail('not_an_f24', `The columns of the ${layout.title} table were not found.`);
  return { sections: tableSections(read), saldo };
}

function readSaldo(line: PageLine): string {
  const amounts = line.words.filter((w) => AMOUNT.test(w.text) || AMOUNT_LIKE.test(w.text));
  if (amounts.length !== 1) fail('amount_unreadable', `The SALDO FINALE should be one amount, ${amounts.length} were read.`);
  return amountOf(amounts[0], 'the SALDO FINALE');
}

/** The one-table layout the form is printed on (by its table's title), or null for the ordinary form. */
const tableLayout = (lines: PageLine[]): F24TableLayout | null =>
  F24_TABLES.find((layout) => lines.some((line) => lineText(line).includes(layout.title))) ?? null;

function read(pages: ReadPage[]): F24Reading {
  const lines = pages.flatMap((page) => page.lines);
  const taxCode = readTaxCode(lines);
  const table = tableLayout(lines);
  const { sections, saldo } = table ? readTable(lines, table) : readSections(lines);
  if (sections.length === 0) fail('not_an_f24', 'No section of an F24 (Erario, INPS, Regioni, IMU e altri tributi locali, INAIL, altri enti) was found.');
  if (saldo === null) return fail('saldo_mismatch', 'The SALDO FINALE was not found.');
  const balance = sections.reduce((total, s) => total + toCents(s.balance), 0);
  if (balance < 0) fail('saldo_mismatch', `The sections' credits exceed their debits by ${fromCents(-balance)}: an F24 cannot end below zero.`);
  if (balance !== toCents(saldo)) fail('saldo_mismatch', `The sections add up to ${fromCents(balance)}, the SALDO FINALE says ${saldo}.`);
  return { tax_code: taxCode, sections, saldo, payment_date: readPaymentDate(lines) };
}

/** The ordinary form's six sections, each with its header, lines and totals row, then the saldo finale. */
function readSections(lines: PageLine[]): { sections: F24Section[]; saldo: string | null } {
  const sections: F24Section[] = [];
  let saldo: string | null = null;
  let open: { layout: F24SectionLayout; header: Header | null; lines: F24Line[] } | null = null;
  for (const line of lines) {
    const text = lineText(line);
    const title = SECTION_TITLES.find((t) => text.includes(t.words));
    if (title) {
      if (open) fail('section_totals_mismatch', `The ${open.layout.title} section has no totals row.`);
      if (sections.some((s) => s.kind === title.layout.kind)) fail('not_an_f24', `The ${title.layout.title} section appears twice.`);
      open = { layout: title.layout, header: null, lines: [] };
      continue;
    }
    if (text.includes('SALDO FINALE')) {
      if (open) fail('section_totals_mismatch', `The ${open.layout.title} section has no totals row.`);
      saldo = readSaldo(line);
      continue;
    }
    if (!open) continue;
    if (!open.header) {
      open.header = readHeader(line, open.layout);
      continue;
    }
    if (line.words.some((w) => normal(w.text) === 'TOTALE')) {
      sections.push(readTotals(line, open.layout, open.lines));
      open = null;
      continue;
    }
    if (line.words.every((w) => normal(w.text) === 'SALDO')) continue;
    open.lines.push(readLine(line, open.header, open.layout, open.lines.length));
  }
  if (open) fail('section_totals_mismatch', `The ${open.layout.title} section has no totals row.`);
  return { sections, saldo };
}

export function parseF24(pages: ReadPage[]): F24ParseResult {
  try {
    return { ok: true, reading: read(pages) };
  } catch (error) {
    if (error instanceof Unsure) return { ok: false, failure: error.failure };
    throw error;
  }
}
