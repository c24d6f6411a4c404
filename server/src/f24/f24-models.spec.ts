import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { F24Ocr, findTessdata } from './f24-ocr.js';
import { openPdf, pageText, renderPage } from './f24-pdf.js';
import type { F24Line } from './f24-form.js';
import { parseF24 } from './f24-parser.js';
import { readF24File } from './f24-reader.js';
import { writeF24Pdf, type F24FormToWrite } from './f24-writer.js';

/** The F24 semplificato and Elide printings, written and read back: their text layer and a scan of each. */
const line = (code: string, office: string | null, reference: string | null, period: string, debit: string | null, credit: string | null = null): F24Line => ({
  code,
  office,
  reference,
  period,
  debit,
  credit,
});

// IMU and its deduction-free lines, an Erario tax with a credit, a regional surcharge: ER, RG, EL in the order written.
const SEMPLIFICATO: F24FormToWrite = {
  model: 'SEMPLIFICATO',
  tax_code: 'VRDGPP75C12F205K',
  name: 'VERDI GIUSEPPE',
  payment_date: '2026-06-16',
  sections: [
    { kind: 'TRIBUTI_LOCALI', lines: [line('3912', 'F205', '0101', '2026', '412.50'), line('3918', 'F205', '0101', '2026', '1287.00')] },
    { kind: 'ERARIO', lines: [line('4033', null, '0101', '2026', '950.00'), line('4001', null, null, '2025', null, '120.35')] },
    { kind: 'REGIONI', lines: [line('3801', '08', '0101', '2025', '233.18')] },
  ],
};

// A lease's registration tax (tipo F, the contract's code) and its stamp duty.
const ELIDE: F24FormToWrite = {
  model: 'ELIDE',
  tax_code: 'VRDGPP75C12F205K',
  name: 'VERDI GIUSEPPE',
  payment_date: '2026-02-02',
  sections: [{ kind: 'ERARIO', lines: [line('1500', 'F', 'TML26T001234000AB', '2026', '120.00'), line('1505', 'F', 'TML26T001234000AB', '2026', '16.00')] }],
};

async function textPages(form: F24FormToWrite) {
  const pdf = await openPdf(await writeF24Pdf(form));
  try {
    return [{ source: 'text' as const, lines: (await pageText(pdf, 1))! }];
  } finally {
    await pdf.destroy();
  }
}

async function scanOf(form: F24FormToWrite): Promise<Buffer> {
  const pdf = await openPdf(await writeF24Pdf(form));
  try {
    return await renderPage(pdf, 1, 200);
  } finally {
    await pdf.destroy();
  }
}

const SEMPLIFICATO_READ = {
  tax_code: 'VRDGPP75C12F205K',
  payment_date: '2026-06-16',
  saldo: '2762.33',
  sections: [
    {
      kind: 'TRIBUTI_LOCALI',
      lines: [line('3912', 'F205', '0101', '2026', '412.50'), line('3918', 'F205', '0101', '2026', '1287.00')],
      total_debit: '1699.50',
      total_credit: '0.00',
      balance: '1699.50',
    },
    {
      kind: 'ERARIO',
      lines: [line('4033', null, '0101', '2026', '950.00'), line('4001', null, null, '2025', null, '120.35')],
      total_debit: '950.00',
      total_credit: '120.35',
      balance: '829.65',
    },
    { kind: 'REGIONI', lines: [line('3801', '08', '0101', '2025', '233.18')], total_debit: '233.18', total_credit: '0.00', balance: '233.18' },
  ],
};

const ELIDE_READ = {
  tax_code: 'VRDGPP75C12F205K',
  payment_date: '2026-02-02',
  saldo: '136.00',
  sections: [
    {
      kind: 'ERARIO',
      lines: [line('1500', 'F', 'TML26T001234000AB', '2026', '120.00'), line('1505', 'F', 'TML26T001234000AB', '2026', '16.00')],
      total_debit: '136.00',
      total_credit: '0.00',
      balance: '136.00',
    },
  ],
};

describe('the F24 semplificato and Elide, from their text layer', () => {
  it('reads the semplificato: each line in the section its Sezione names, totals added up, the saldo checked', async () => {
    expect(parseF24(await textPages(SEMPLIFICATO))).toEqual({ ok: true, reading: SEMPLIFICATO_READ });
  });

  it('reads the Elide: tipo as office, elementi identificativi as reference, all Erario', async () => {
    expect(parseF24(await textPages(ELIDE))).toEqual({ ok: true, reading: ELIDE_READ });
  });

  it('applies the same checks: the saldo finale against the lines, the check letter, the contributor found', async () => {
    expect(parseF24(await textPages({ ...SEMPLIFICATO, saldo: '2762.34' }))).toEqual({
      ok: false,
      failure: { reason: 'saldo_mismatch', detail: 'The sections add up to 2762.33, the SALDO FINALE says 2762.34.' },
    });
    expect(parseF24(await textPages({ ...ELIDE, saldo: '120.00' }))).toMatchObject({ ok: false, failure: { reason: 'saldo_mismatch' } });
    expect(parseF24(await textPages({ ...ELIDE, tax_code: 'VRDGPP75C12F205J' }))).toMatchObject({ ok: false, failure: { reason: 'tax_code_invalid' } });
    // Credits above the debits: an F24 never ends below zero.
    const credits = { ...SEMPLIFICATO, sections: [{ kind: 'ERARIO' as const, lines: [line('4001', null, null, '2025', null, '50.00')] }], saldo: '0.00' };
    expect(parseF24(await textPages(credits))).toMatchObject({ ok: false, failure: { reason: 'saldo_mismatch' } });
  });

  it('refuses a semplificato line whose Sezione is not ER, RG or EL', async () => {
    const pages = await textPages(SEMPLIFICATO);
    const section = pages[0].lines.flatMap((l) => l.words).find((w) => w.text === 'RG')!;
    section.text = 'XX';
    expect(parseF24(pages)).toMatchObject({ ok: false, failure: { reason: 'field_unreadable', detail: expect.stringContaining('"XX"') } });
  });

  it('drops the specks OCR hangs on a code as dots or colons, and fails a code it is not sure of', async () => {
    const pages = await textPages(ELIDE);
    const [first, second] = pages[0].lines.flatMap((l) => l.words).filter((w) => w.text === 'TML26T001234000AB');
    Object.assign(first, { text: 'TML.26T001234000AB', confidence: 91 });
    expect(parseF24(pages)).toEqual({ ok: true, reading: ELIDE_READ });
    Object.assign(second, { confidence: 52 });
    expect(parseF24(pages)).toMatchObject({ ok: false, failure: { reason: 'field_unreadable', detail: expect.stringContaining('line 2') } });
  });

  it('writes only what each printing carries', async () => {
    await expect(writeF24Pdf({ ...ELIDE, sections: [{ kind: 'INPS', lines: [line('DM10', '5100', null, '02/2026', '10.00')] }] })).rejects.toThrow(/no INPS/);
    await expect(writeF24Pdf({ ...ELIDE, sections: [{ kind: 'ERARIO', lines: [line('1500', 'F', 'X1', '2026', null, '1.00')] }] })).rejects.toThrow(
      /no credits/,
    );
    await expect(writeF24Pdf({ ...SEMPLIFICATO, sections: [{ kind: 'INAIL', lines: [line('P', '13100', null, '2026', '1.00')] }] })).rejects.toThrow(
      /no INAIL/,
    );
  });
});

describe('the F24 semplificato and Elide, scanned (OCR)', () => {
  let ocr: F24Ocr;

  beforeAll(() => {
    const found = findTessdata();
    if ('missing' in found) throw new Error(found.missing);
    ocr = new F24Ocr(found.dir);
  });

  afterAll(() => ocr.close());

  it('reads a clean 200 dpi scan of the semplificato: every field and amount', async () => {
    const { result, sources } = await readF24File(await scanOf(SEMPLIFICATO), 'png', ocr);
    expect(sources).toEqual(['ocr']);
    expect(result).toEqual({ ok: true, reading: SEMPLIFICATO_READ });
  }, 120_000);

  it('reads a clean 200 dpi scan of the Elide: every field and amount', async () => {
    const { result } = await readF24File(await scanOf(ELIDE), 'png', ocr);
    expect(result).toEqual({ ok: true, reading: ELIDE_READ });
  }, 120_000);
});
