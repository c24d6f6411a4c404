/**
 * The F24 form ("modello F24", ordinario, semplificato and Elide share it) as Flusso reads it: the contributor, the
 * sections with their lines, and the payment. Pure data and the section catalogue, shared by the reader, the writer
 * of sample forms and the presenter. Amounts are exact decimal strings in euro ("1234.56").
 */

export const F24_SECTION_KINDS = ['ERARIO', 'INPS', 'REGIONI', 'TRIBUTI_LOCALI', 'INAIL', 'ALTRI_ENTI'] as const;
export type F24SectionKind = (typeof F24_SECTION_KINDS)[number];

/** What identifies a line besides its amounts, as the form's columns name it. */
export const F24_LINE_FIELDS = ['office', 'code', 'reference', 'period'] as const;
export type F24LineField = (typeof F24_LINE_FIELDS)[number];

export interface F24Column {
  field: F24LineField;
  /** The column's heading as printed on the form (upper case; the reader finds it by these words). */
  label: string;
}

export interface F24SectionLayout {
  kind: F24SectionKind;
  /** The section's title on the form. */
  title: string;
  /** The letters of its totals boxes: debit, credit (A and B for Erario). */
  totals: [string, string];
  columns: readonly F24Column[];
}

/**
 * The six sections of the ordinary form in their order, with the columns that identify a line. `code` is the codice
 * tributo or causale contributo, `period` the reference year or months, `office` the codice sede/ente/regione and
 * `reference` the rest (rateazione, matricola, codice ditta, codice posizione).
 */
export const F24_SECTIONS: readonly F24SectionLayout[] = [
  {
    kind: 'ERARIO',
    title: 'SEZIONE ERARIO',
    totals: ['A', 'B'],
    columns: [
      { field: 'code', label: 'CODICE TRIBUTO' },
      { field: 'reference', label: 'RATEAZIONE' },
      { field: 'period', label: 'ANNO RIF.' },
    ],
  },
  {
    kind: 'INPS',
    title: 'SEZIONE INPS',
    totals: ['C', 'D'],
    columns: [
      { field: 'office', label: 'CODICE SEDE' },
      { field: 'code', label: 'CAUSALE' },
      { field: 'reference', label: 'MATRICOLA' },
      { field: 'period', label: 'PERIODO RIF.' },
    ],
  },
  {
    kind: 'REGIONI',
    title: 'SEZIONE REGIONI',
    totals: ['E', 'F'],
    columns: [
      { field: 'office', label: 'REGIONE' },
      { field: 'code', label: 'CODICE TRIBUTO' },
      { field: 'reference', label: 'RATEAZIONE' },
      { field: 'period', label: 'ANNO RIF.' },
    ],
  },
  {
    kind: 'TRIBUTI_LOCALI',
    title: 'SEZIONE IMU E ALTRI TRIBUTI LOCALI',
    totals: ['G', 'H'],
    columns: [
      { field: 'office', label: 'CODICE ENTE' },
      { field: 'code', label: 'CODICE TRIBUTO' },
      { field: 'reference', label: 'RATEAZIONE' },
      { field: 'period', label: 'ANNO RIF.' },
    ],
  },
  {
    kind: 'INAIL',
    title: 'SEZIONE INAIL',
    totals: ['I', 'L'],
    columns: [
      { field: 'office', label: 'CODICE SEDE' },
      { field: 'reference', label: 'CODICE DITTA' },
      { field: 'code', label: 'CAUSALE' },
      { field: 'period', label: 'NUMERO RIF.' },
    ],
  },
  {
    kind: 'ALTRI_ENTI',
    title: 'SEZIONE ALTRI ENTI PREVIDENZIALI',
    totals: ['M', 'N'],
    columns: [
      { field: 'office', label: 'CODICE ENTE' },
      { field: 'code', label: 'CAUSALE' },
      { field: 'reference', label: 'POSIZIONE' },
      { field: 'period', label: 'PERIODO RIF.' },
    ],
  },
];

/**
 * The three printings of the form. The ordinary one has its six sections, each with its totals. The semplificato
 * (Provv. Agenzia delle Entrate 25 May 2012) has one table, MOTIVO DEL PAGAMENTO, whose column "Sezione" names each
 * line's destination (ER Erario, RG Regioni, EL enti locali), and no totals but the saldo finale. The Elide ("versamenti
 * con elementi identificativi") has one table, ERARIO ED ALTRO, of lines with their "tipo" and "elementi
 * identificativi" (a lease's registration code, a deed's number) and amounts due only.
 */
export const F24_MODELS = ['ORDINARIO', 'SEMPLIFICATO', 'ELIDE'] as const;
export type F24Model = (typeof F24_MODELS)[number];

/** A column of the semplificato's or the Elide's one table: what it fills of a line (null: read and left aside). */
export interface F24TableColumn {
  field: F24LineField | 'section' | 'debit' | 'credit' | 'deduction' | null;
  /** The words on the header's first row (the reader finds the column by them). */
  label: string;
  /** The words the form prints under them, on the header's second row. */
  under?: string;
}

export interface F24TableLayout {
  model: Exclude<F24Model, 'ORDINARIO'>;
  /** The table's title, which tells the model apart. */
  title: string;
  columns: readonly F24TableColumn[];
}

/** The semplificato's "Sezione" codes and the sections they stand for. */
export const SEMPLIFICATO_SECTIONS: Readonly<Record<string, F24SectionKind>> = { ER: 'ERARIO', RG: 'REGIONI', EL: 'TRIBUTI_LOCALI' };

export const F24_TABLES: readonly F24TableLayout[] = [
  {
    model: 'SEMPLIFICATO',
    title: 'MOTIVO DEL PAGAMENTO',
    columns: [
      { field: 'section', label: 'SEZIONE' },
      { field: 'code', label: 'COD. TRIBUTO' },
      { field: 'office', label: 'CODICE ENTE' },
      // IMU's boxes: ravvedimento, properties changed, acconto, saldo (marked X), number of properties.
      { field: null, label: 'RAVV.' },
      { field: null, label: 'IMMOB.', under: 'VARIATI' },
      { field: null, label: 'ACC.' },
      { field: null, label: 'SALDO' },
      { field: null, label: 'NUM.', under: 'IMMOB.' },
      { field: 'reference', label: 'RATEAZIONE/', under: 'MESE RIF.' },
      { field: 'period', label: 'ANNO DI', under: 'RIFERIMENTO' },
      // IMU's deduction is already taken from the amount due: shown, not paid.
      { field: 'deduction', label: 'DETRAZIONE' },
      { field: 'debit', label: 'IMPORTI A DEBITO', under: 'VERSATI' },
      { field: 'credit', label: 'IMPORTI A CREDITO', under: 'COMPENSATI' },
    ],
  },
  {
    model: 'ELIDE',
    title: 'ERARIO ED ALTRO',
    columns: [
      { field: 'office', label: 'TIPO' },
      { field: 'reference', label: 'ELEMENTI IDENTIFICATIVI' },
      { field: 'code', label: 'CODICE TRIBUTO' },
      { field: 'period', label: 'ANNO DI', under: 'RIFERIMENTO' },
      { field: 'debit', label: 'IMPORTI A DEBITO', under: 'VERSATI' },
    ],
  },
];

export const DEBIT_LABEL = 'IMPORTI A DEBITO';
export const CREDIT_LABEL = 'IMPORTI A CREDITO';
export const SALDO_LABEL = 'SALDO';

export interface F24Line {
  /** Codice tributo or causale contributo. */
  code: string;
  office: string | null;
  reference: string | null;
  period: string | null;
  /** Importo a debito versato, or null when the box is empty. */
  debit: string | null;
  /** Importo a credito compensato, or null when the box is empty. */
  credit: string | null;
}

export interface F24Section {
  kind: F24SectionKind;
  lines: F24Line[];
  total_debit: string;
  total_credit: string;
  /** Debit less credit; negative when the section's credits exceed its debits. */
  balance: string;
}

export interface F24Reading {
  /** The contributor's codice fiscale (16 characters, or the 11 digits of a company's). */
  tax_code: string;
  sections: F24Section[];
  /** The saldo finale: what is paid, never negative (a credit-only form pays zero). */
  saldo: string;
  /** Data di versamento, YYYY-MM-DD. */
  payment_date: string;
}

/** Cents of an exact euro amount ("1234.56" → 123456), and back: sums are done in integer cents. */
export function toCents(amount: string): number {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = amount.replace(/^-/, '').split('.');
  const cents = Number(whole) * 100 + Number((fraction + '00').slice(0, 2));
  return negative ? -cents : cents;
}

export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An amount as the form prints it: Italian grouping and decimal comma ("1.234,56"). */
export function formatFormAmount(amount: string): string {
  const cents = toCents(amount);
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${cents < 0 ? '-' : ''}${whole},${String(abs % 100).padStart(2, '0')}`;
}
