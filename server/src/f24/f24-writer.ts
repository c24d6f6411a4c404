import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { CREDIT_LABEL, DEBIT_LABEL, F24_SECTIONS, formatFormAmount, fromCents, SALDO_LABEL, toCents, type F24Line, type F24SectionKind } from './f24-form.js';

/**
 * Writes an F24 on the ordinary form's layout (A4, the six sections in their order, each line's identifying columns
 * then its debit and credit boxes, the totals row with the section's letters and SALDO, the saldo finale and the
 * payment details), with a text layer as the software accountants use prints it. The sandbox's sample form, the
 * tests and the benchmark read what this writes; `totals` and `saldo` can be given to write a form that does not
 * add up.
 */
export interface F24FormToWrite {
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
  for (const section of form.sections) {
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
