// Field accuracy of F24 OCR on a scanned set (issue 20): forms made by the one writer, rendered at 200 dpi and read by
// the worker's own reader (text layer absent: OCR), in two sets: clean scans (level, no noise) and rough ones (turned
// by up to ±1°, 0.5% of pixels noise). For each form: PROCESSED with every field right, FAILED (the reason stated), or
// WRONG (processed with a field that differs: must never happen). Field accuracy counts the amounts (every line's
// debit and credit, every section's totals and saldo, the saldo finale), the tax code and the date of the processed
// forms. Every set is run on each printing of the form in F24_MODELS (default ORDINARIO,SEMPLIFICATO,ELIDE). Run with
// `npm run bench:f24-accuracy` (builds first); F24_FORMS (default 6) forms per set.
import { readF24File } from '../dist/server/src/f24/f24-reader.js';
import { F24Ocr, findTessdata } from '../dist/server/src/f24/f24-ocr.js';
import { toCents, fromCents } from '../dist/server/src/f24/f24-form.js';
import { formPdf, sampleFormOf, scanOf, generator } from './f24-forms.mjs';

const FORMS = Number(process.env.F24_FORMS ?? 6);
const SETS = (process.env.F24_SETS ?? 'clean,rough').split(',');
const MODELS = (process.env.F24_MODELS ?? 'ORDINARIO,SEMPLIFICATO,ELIDE').split(',');
const TAX_CODE = '01234567897';
const tessdata = findTessdata();
if ('missing' in tessdata) throw new Error(tessdata.missing);
const ocr = new F24Ocr(tessdata.dir);

/** What the reader should find in `form`: every field compared, by name. */
function expected(form) {
  const fields = { tax_code: form.tax_code, payment_date: form.payment_date };
  let total = 0;
  form.sections.forEach((section, s) => {
    let debit = 0;
    let credit = 0;
    section.lines.forEach((line, l) => {
      fields[`${section.kind}.${l}.debit`] = line.debit;
      fields[`${section.kind}.${l}.credit`] = line.credit;
      fields[`${section.kind}.${l}.code`] = line.code;
      // The one-table printings: their Sezione, tipo and elementi identificativi land in office and reference.
      if (form.model) {
        fields[`${section.kind}.${l}.office`] = line.office;
        fields[`${section.kind}.${l}.reference`] = line.reference;
      }
      debit += line.debit ? toCents(line.debit) : 0;
      credit += line.credit ? toCents(line.credit) : 0;
    });
    fields[`${section.kind}.total_debit`] = fromCents(debit);
    fields[`${section.kind}.total_credit`] = fromCents(credit);
    fields[`${section.kind}.balance`] = fromCents(debit - credit);
    total += debit - credit;
    void s;
  });
  fields.saldo = fromCents(Math.max(0, total));
  return fields;
}

function found(reading, model) {
  const fields = { tax_code: reading.tax_code, payment_date: reading.payment_date, saldo: reading.saldo };
  for (const section of reading.sections) {
    section.lines.forEach((line, l) => {
      fields[`${section.kind}.${l}.debit`] = line.debit;
      fields[`${section.kind}.${l}.credit`] = line.credit;
      fields[`${section.kind}.${l}.code`] = line.code;
      if (model) {
        fields[`${section.kind}.${l}.office`] = line.office;
        fields[`${section.kind}.${l}.reference`] = line.reference;
      }
    });
    fields[`${section.kind}.total_debit`] = section.total_debit;
    fields[`${section.kind}.total_credit`] = section.total_credit;
    fields[`${section.kind}.balance`] = section.balance;
  }
  return fields;
}

async function measure(name, model, scan) {
  const tally = { processed: 0, failed: 0, wrong: 0, fields: 0, right: 0, amounts: 0, amountsRight: 0, reasons: {}, ms: 0 };
  for (let i = 0; i < FORMS; i++) {
    const form = sampleFormOf(model, TAX_CODE, i);
    const png = await scanOf(await formPdf(form), scan(i));
    const started = performance.now();
    const { result } = await readF24File(png, 'png', ocr);
    tally.ms += performance.now() - started;
    if (!result.ok) {
      tally.failed++;
      tally.reasons[result.failure.reason] = (tally.reasons[result.failure.reason] ?? 0) + 1;
      console.log(`  ${name} form ${i}: FAILED ${result.failure.reason}: ${result.failure.detail}`);
      continue;
    }
    const want = expected(form);
    const got = found(result.reading, form.model);
    let allRight = true;
    for (const [field, value] of Object.entries(want)) {
      const isAmount = !/code|office|reference|tax_code|payment_date/.test(field);
      tally.fields++;
      if (isAmount) tally.amounts++;
      if ((got[field] ?? null) === value) {
        tally.right++;
        if (isAmount) tally.amountsRight++;
      } else {
        allRight = false;
        console.log(`  ${name} form ${i}: ${field} read ${got[field]}, is ${value}`);
      }
    }
    if (allRight) tally.processed++;
    else tally.wrong++;
  }
  const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '-');
  console.log(
    `${name}: ${FORMS} forms: ${tally.processed} processed and right, ${tally.failed} failed ${JSON.stringify(tally.reasons)}, ${tally.wrong} WRONG; ` +
      `fields right ${tally.right}/${tally.fields} (${pct(tally.right, tally.fields)}%), amounts right ${tally.amountsRight}/${tally.amounts} (${pct(tally.amountsRight, tally.amounts)}%); ` +
      `${(tally.ms / FORMS / 1000).toFixed(1)} s per page`,
  );
  return tally;
}

const NOISE = Number(process.env.F24_NOISE ?? 0.005);
const tallies = [];
for (const model of MODELS) {
  const turn = generator(7);
  if (SETS.includes('clean')) tallies.push(await measure(`${model} clean scans (200 dpi, level)`, model, () => ({ dpi: 200 })));
  if (SETS.includes('rough')) {
    tallies.push(
      await measure(`${model} rough scans (200 dpi, ±1°, ${NOISE * 100}% noise)`, model, (i) => ({
        dpi: 200,
        degrees: (turn() * 2 - 1) * 1,
        noise: NOISE,
        seed: i + 1,
      })),
    );
  }
}
await ocr.close();
if (tallies.some((t) => t.wrong)) {
  console.error('A form was processed with a wrong field: the reader must fail it instead.');
  process.exitCode = 1;
}
