import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import {
  CREDIT_LABEL,
  DEBIT_LABEL,
  F24_SECTIONS,
  F24_TABLES,
  formatFormAmount,
  fromCents,
  SALDO_LABEL,
  SEMPLIFICATO_SECTIONS,
  toCents,
  type F24Line,
  type F24Model,
  type F24SectionKind,
} from './f24-form.js';

/**
 * Writes an F24 on the ordinary form's layout (A4, the six sections in their order, each line's identifying columns
 * then its debit and credit boxes, the totals row with the section's letters and SALDO, the saldo finale and the
 * payment details), with a text layer as the software accountants use prints it. The sandbox's sample form, the
 * tests and the benchmark read what this writes; `totals` and `saldo` can be given to write a form that does not
 * add up. `model` SEMPLIFICATO or ELIDE writes the same content on that printing's one table (f24-form.ts): the
 * semplificato's lines with their Sezione (ER, RG, EL: Erario, Regioni and tributi locali only), the Elide's with
 * `office` as their tipo and `reference` as their elementi identificativi (Erario only, no credits); neither prints
 * section totals.
 */
export interface F24FormToWrite {
  model?: F24Model;
  tax_code: string;
  name: string;
  payment_date: string;
  sections: Array<{ kind: F24SectionKind; lines: F24Line[]; total_debit?: string; total_credit?: string }>;
  saldo?: string;
}

const PAGE = { width: 595.28, height: 841.89 };
const ID_COLUMNS_X = [40, 105, 185, 265];
const DEBIT_RIGHT = 415;
const CREDIT_RIGHT = 500;
const SALDO_RIGHT = 570;
const INK = rgb(0, 0, 0);
const RULE = rgb(0.55, 0.55, 0.55);

export async function writeF24Pdf(form: F24FormToWrite): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Modello F24');
  pdf.setProducer('Flusso');
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const text = (value: string, x: number, y: number, size = 9, font: PDFFont = regular) => page.drawText(value, { x, y, size, font, color: INK });
  const right = (value: string, xRight: number, y: number, size = 9, font: PDFFont = regular) =>
    text(value, xRight - font.widthOfTextAtSize(value, size), y, size, font);
  const centre = (value: string, xRight: number, y: number, size: number) => text(value, xRight - 42 - regular.widthOfTextAtSize(value, size) / 2, y, size);

  let y = PAGE.height - 50;
  text('MODELLO DI PAGAMENTO UNIFICATO F24', 40, y, 12, bold);
  y -= 28;
  text('CONTRIBUENTE', 40, y, 8, bold);
  y -= 18;
  text('CODICE FISCALE', 40, y, 7);
  text(form.tax_code, 120, y, 10, bold);
  y -= 16;
  text('COGNOME, DENOMINAZIONE O RAGIONE SOCIALE', 40, y, 7);
  text(form.name, 235, y, 9);
  y -= 14;
  rule(page, y);

  let totalCents = 0;
  const table = F24_TABLES.find((t) => t.model === form.model);
  if (table) {
    y -= 20;
    text(table.title, 40, y, 9, bold);
    // The columns side by side from the left margin, each as wide as its label or its widest value.
    const size = 6;
    const sectionCodes = Object.fromEntries(Object.entries(SEMPLIFICATO_SECTIONS).map(([code, kind]) => [kind, code]));
    const rows = form.sections.flatMap((section) =>
      section.lines.map((line) => {
        const code = table.model === 'SEMPLIFICATO' ? sectionCodes[section.kind] : section.kind === 'ERARIO' ? '' : undefined;
        if (code === undefined) throw new Error(`The ${table.model} form has no ${section.kind} lines`);
        if (table.model === 'ELIDE' && line.credit) throw new Error('The ELIDE form has no credits');
        return { ...line, section: code };
      }),
    );
    const valueOf = (row: (typeof rows)[number], field: string | null): string | null =>
      field === null || field === 'deduction'
        ? null
        : field === 'debit' || field === 'credit'
          ? row[field]
            ? formatFormAmount(row[field])
            : null
          : row[field as keyof typeof row];
    // Each column as wide as its label or its widest value, spread over the page's width: OCR reads apart what is apart.
    const widths = table.columns.map((column) =>
      Math.max(
        ...[column.label, column.under ?? ''].map((l) => regular.widthOfTextAtSize(l, size)),
        ...rows.map((row) => regular.widthOfTextAtSize(valueOf(row, column.field) ?? '', 9)),
      ),
    );
    const gap = (SALDO_RIGHT - 40 - widths.reduce((a, b) => a + b, 0)) / (widths.length - 1);
    if (gap < 6) throw new Error(`The ${table.model} table's values are too wide for the page`);
    let x = 40;
    const placed = table.columns.map((column, i) => {
      const at = { column, x0: x, right: x + widths[i] };
      x += widths[i] + gap;
      return at;
    });
    y -= 16;
    placed.forEach(({ column, x0 }) => text(column.label, x0, y, size));
    y -= 7;
    placed.forEach(({ column, x0 }) => column.under && text(column.under, x0, y, size));
    y -= 4;
    for (const row of rows) {
      y -= 18;
      for (const { column, x0, right: xRight } of placed) {
        const value = valueOf(row, column.field);
        if (!value) continue;
        if (column.field === 'debit' || column.field === 'credit') right(value, xRight, y);
        else text(value, x0, y);
      }
      totalCents += (row.debit ? toCents(row.debit) : 0) - (row.credit ? toCents(row.credit) : 0);
    }
    y -= 10;
    rule(page, y);
  }
  for (const section of table ? [] : form.sections) {
    const layout = F24_SECTIONS.find((s) => s.kind === section.kind)!;
    y -= 20;
    text(layout.title, 40, y, 9, bold);
    y -= 16;
    layout.columns.forEach((column, i) => text(column.label, ID_COLUMNS_X[i], y, 6.5));
    centre(DEBIT_LABEL, DEBIT_RIGHT, y, 6.5);
    centre(CREDIT_LABEL, CREDIT_RIGHT, y, 6.5);
    y -= 4;
    for (const line of section.lines) {
      y -= 15;
      layout.columns.forEach((column, i) => {
        const value = line[column.field];
        if (value) text(value, ID_COLUMNS_X[i], y);
      });
      if (line.debit) right(formatFormAmount(line.debit), DEBIT_RIGHT, y);
      if (line.credit) right(formatFormAmount(line.credit), CREDIT_RIGHT, y);
    }
    const debit = section.total_debit ?? fromCents(section.lines.reduce((sum, l) => sum + (l.debit ? toCents(l.debit) : 0), 0));
    const credit = section.total_credit ?? fromCents(section.lines.reduce((sum, l) => sum + (l.credit ? toCents(l.credit) : 0), 0));
    const balance = toCents(debit) - toCents(credit);
    totalCents += balance;
    y -= 18;
    text('TOTALE', 185, y, 7, bold);
    text(layout.totals[0], DEBIT_RIGHT - 88, y, 7, bold);
    right(formatFormAmount(debit), DEBIT_RIGHT, y, 9, bold);
    text(layout.totals[1], CREDIT_RIGHT - 80, y, 7, bold);
    right(formatFormAmount(credit), CREDIT_RIGHT, y, 9, bold);
    text(SALDO_LABEL, SALDO_RIGHT - 62, y + 10, 6.5);
    right(formatFormAmount(fromCents(balance)), SALDO_RIGHT, y, 9, bold);
    y -= 10;
    rule(page, y);
  }

  y -= 28;
  const saldo = form.saldo ?? fromCents(Math.max(0, totalCents));
  text('SALDO FINALE', 330, y, 9, bold);
  text('EURO', 420, y, 7);
  right(formatFormAmount(saldo), SALDO_RIGHT, y, 10, bold);
  y -= 30;
  text('ESTREMI DEL VERSAMENTO', 40, y, 8, bold);
  y -= 18;
  const [year, month, day] = form.payment_date.split('-');
  text('DATA', 40, y, 7);
  text(`${day}/${month}/${year}`, 80, y, 10, bold);
  text('CODICE BANCA/POSTE/AGENTE DELLA RISCOSSIONE', 200, y, 6.5);
  return pdf.save({ useObjectStreams: false });
}

function rule(page: PDFPage, y: number) {
  page.drawLine({ start: { x: 36, y }, end: { x: PAGE.width - 20, y }, thickness: 0.5, color: RULE });
}
